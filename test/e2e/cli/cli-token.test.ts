import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../../src/gateway/index.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) as a real process: `carte token create`,
// `list` and `revoke` (issue 15, item 2). Every output is kept, and none may hold a secret.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
const DATA = join(tmp.dir, 'data');
const WITH_PROJECTS = join(tmp.dir, 'projects.yaml');
const WITHOUT_PROJECTS = join(tmp.dir, 'plain.yaml');
const TOKEN = /^carte_[A-Za-z0-9_-]{43}$/;
afterAll(() => tmp.cleanup());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Every output of every run but the `create` stdout lines that print a token. */
const outputs: string[] = [];

function carte(config: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', DATA, '--config', config, ...args],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        outputs.push(stderr);
        if (args[1] !== 'create') outputs.push(stdout);
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

const server = `servers:
  echo:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(join(FIXTURES, 'faults.mjs'))}]
`;

beforeAll(() => {
  writeFileSync(WITHOUT_PROJECTS, server);
  writeFileSync(
    WITH_PROJECTS,
    `${server}projects:\n  web:\n    servers: [echo]\n  ops:\n    servers: []\n    rate: 60/m\n`,
  );
});

interface ListedToken {
  id: string;
  name: string | null;
  project: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  ratePerMinute: number | null;
  effectiveRatePerMinute: number | null;
  status: string;
}

const secrets: string[] = [];

async function create(config: string, ...args: string[]): Promise<{ token: string; stderr: string }> {
  const r = await carte(config, 'token', 'create', ...args);
  expect(r.code, r.stderr).toBe(0);
  // The token alone on the last line, and nothing else on stdout.
  expect(r.stdout).toMatch(/^[^\n]*\n$/);
  const token = r.stdout.trimEnd();
  expect(token).toMatch(TOKEN);
  secrets.push(token);
  return { token, stderr: r.stderr };
}

async function listJson(): Promise<ListedToken[]> {
  const r = await carte(WITH_PROJECTS, 'token', 'list', '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ListedToken[];
}

describe('carte token', () => {
  it('creates a token: a note on stderr, the token alone on stdout, only its hash stored', async () => {
    const { token, stderr } = await create(
      WITH_PROJECTS,
      '--project',
      'web',
      '--name',
      'ci',
      '--expires',
      '30d',
      '--scope',
      'call',
      '--scope',
      'search',
      '--rate',
      '10/s',
    );
    expect(stderr).toMatch(
      /^created token tok_[0-9a-f]{8} \("ci"\) for project "web", scopes call, search; expires \d{4}-\d\d-\d\d \d\d:\d\d UTC; at most 600 requests a minute\n/,
    );
    const store = await openStore(join(DATA, 'carte.db'));
    try {
      const [row] = await store.tokens.list();
      expect(row?.hash).toBe(createHash('sha256').update(token).digest('hex'));
    } finally {
      await store.close();
    }
  });

  it('lists tokens as a table and as JSON, never with a secret', async () => {
    await create(WITH_PROJECTS, '--project', 'ops');
    const [ci, ops] = await listJson();
    expect(ci).toMatchObject({
      name: 'ci',
      project: 'web',
      scopes: ['call', 'search'],
      ratePerMinute: 600,
      effectiveRatePerMinute: 600,
      status: 'active',
    });
    expect(Date.parse(ci!.expiresAt!) - Date.parse(ci!.createdAt)).toBe(30 * 86_400_000);
    expect(ops).toMatchObject({
      name: null,
      project: 'ops',
      scopes: ['search'],
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
      ratePerMinute: null,
      effectiveRatePerMinute: 60, // its project's rate
      status: 'active',
    });
    expect(Object.keys(ops!).sort()).toEqual(
      [
        'createdAt',
        'effectiveRatePerMinute',
        'expiresAt',
        'id',
        'lastUsedAt',
        'name',
        'project',
        'ratePerMinute',
        'revokedAt',
        'scopes',
        'status',
      ].sort(),
    );
    const table = await carte(WITH_PROJECTS, 'token', 'list');
    expect(table.stdout.split('\n')[0]).toMatch(
      /^ID +NAME +PROJECT +SCOPES +RATE +CREATED +EXPIRES +LAST USED +STATUS$/,
    );
    expect(table.stdout).toContain(`${ops!.id}  -     ops      search       60/m (project)  `);
    expect(table.stdout).toContain(`${ci!.id}  ci    web      call,search  600/m           `);
  });

  it('revokes by id, once, and by the token itself', async () => {
    const [ci, ops] = await listJson();
    const first = await carte(WITH_PROJECTS, 'token', 'revoke', ci!.id);
    expect(first).toMatchObject({ code: 0, stdout: `revoked token ${ci!.id}\n`, stderr: '' });
    const again = await carte(WITH_PROJECTS, 'token', 'revoke', ci!.id);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^token ${ci!.id} was already revoked on .+ UTC\\n$`));
    const bySecret = await carte(WITH_PROJECTS, 'token', 'revoke', secrets[1]!);
    expect(bySecret.stdout).toBe(`revoked token ${ops!.id}\n`);
    expect((await listJson()).map((t) => t.status)).toEqual(['revoked', 'revoked']);
  });

  it.each([
    [
      WITH_PROJECTS,
      ['token', 'create', '--project', 'wbe'],
      'carte: unknown project "wbe"; did you mean "web"?\n',
    ],
    [
      WITHOUT_PROJECTS,
      ['token', 'create', '--project', 'web'],
      'carte: unknown project "web"; the configured projects are "default"\n',
    ],
    [
      WITH_PROJECTS,
      ['token', 'create'],
      'carte: carte token create needs --project; the configured projects are "web", "ops"\n',
    ],
    [
      WITH_PROJECTS,
      ['token', 'create', '--project', 'web', '--scope', 'write'],
      'carte: unknown scope "write"; scopes are search, call, admin\n',
    ],
    [
      WITH_PROJECTS,
      ['token', 'create', '--project', 'web', '--expires', 'soon'],
      'carte: --expires takes a duration such as 30m, 24h, 7d or 2w, not "soon"\n',
    ],
    [
      WITH_PROJECTS,
      ['token', 'create', '--project', 'web', '--rate', '600'],
      'carte: --rate takes requests per minute or second such as 600/m or 10/s, not "600"\n',
    ],
    [
      WITH_PROJECTS,
      ['token', 'revoke', 'tok_nothere'],
      'carte: unknown token id "tok_nothere"; run "carte token list" to see the ids\n',
    ],
    [WITH_PROJECTS, ['token', 'drop'], 'carte: unknown token action "drop"; use create, list or revoke\n'],
  ])('refuses bad input (%#) with exit 64 and one line on stderr', async (config, args, stderr) => {
    const r = await carte(config, ...args);
    expect(r).toEqual({ code: 64, stdout: '', stderr });
  });

  it('without projects in the config, creates tokens for "default"', async () => {
    await create(WITHOUT_PROJECTS, '--project', 'default', '--scope', 'admin');
    expect((await listJson()).at(-1)).toMatchObject({ project: 'default', scopes: ['admin'] });
  });

  it('writes each create and revoke to the audit log, by the CLI, never with a secret', async () => {
    const [ci, ops, admin] = await listJson();
    const r = await carte(WITH_PROJECTS, 'audit', 'export');
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const described = (t: ListedToken) => {
      const name = t.name === null ? '' : ` ${JSON.stringify(t.name)}`;
      const expiry = t.expiresAt === null ? 'never' : t.expiresAt.replace(/\.\d{3}Z$/, 'Z');
      const rate = t.ratePerMinute === null ? '' : `; rate ${t.ratePerMinute}/m`;
      return `${t.id}${name} in project "${t.project}": scopes ${t.scopes.join(', ')}; expires ${expiry}${rate}`;
    };
    const revokedAt = ci!.revokedAt!.replace(/\.\d{3}Z$/, 'Z');
    // Refused attempts of the local operator (the typos above) are not recorded.
    expect(rows.map((row) => [row.kind, row.project, row.tokenId, row.outcome, row.detail])).toEqual(
      [
        `token create ${described(ci!)}`,
        `token create ${described(ops!)}`,
        `token revoke ${described(ci!)}`,
        `token revoke ${described(ci!)} (already revoked at ${revokedAt})`,
        `token revoke ${described(ops!)}`,
        `token create ${described(admin!)}`,
      ].map((detail, i) => [
        'admin',
        [ci, ops, ci, ci, ops, admin][i]!.project,
        null,
        'ok',
        `${detail}; by the CLI`,
      ]),
    );
    const table = await carte(WITH_PROJECTS, 'audit');
    expect(
      table.stdout.split('\n').filter((l) => / admin +(web|ops|default) +- +- +ok /.test(l)),
    ).toHaveLength(6);
    expect(JSON.stringify(rows)).not.toMatch(/carte_[A-Za-z0-9_-]{8}/); // and no secret (the next test scans every output)
  });

  it('never prints a secret or its hash, except the token once on create', async () => {
    const secret = secrets[0]!;
    for (const args of [['revoke', secret.slice(0, 20)], ['revoke', `${secret}x`], [secret]]) {
      const r = await carte(WITH_PROJECTS, 'token', ...args);
      expect(r.code).toBe(64);
    }
    expect(secrets).toHaveLength(3);
    const all = outputs.join('\n');
    for (const token of secrets) {
      const body = token.slice('carte_'.length);
      for (let i = 0; i + 8 <= body.length; i++) expect(all).not.toContain(body.slice(i, i + 8));
      expect(all).not.toContain(createHash('sha256').update(token).digest('hex'));
    }
  });
});
