import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AuditLog, openStore } from '../../../src/gateway/index.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

// Slow: runs the CLI from source (tsx) as a real process: `carte audit` and `carte audit export`
// (issue 15, item 5) over a store the AuditLog filled, with planted secrets that must never print.
const tmp = tempDir('carte-cli-audit-');
const DATA = join(tmp.dir, 'data');
const CONFIG = join(tmp.dir, 'carte.yaml');
const MAIN = pathToFileURL(join(ROOT, 'src', 'cli', 'main.ts')).href;
const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A';
const PASSWORD = 'correct-horse-battery-staple';
const QUERY = 'private roadmap octocat';
afterAll(() => tmp.cleanup());

/** The CLI entry from source, so the test needs no build. */
const ENTRY = join(tmp.dir, 'carte-src.mjs');
writeFileSync(
  ENTRY,
  `const m = await import(${JSON.stringify(MAIN)});\nawait m.main(process.argv.slice(2));\n`,
);

function carte(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', ENTRY, '--data-dir', DATA, '--config', CONFIG, ...args],
      { cwd: ROOT, env: { ...process.env, CARTE_CONFIG: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  writeFileSync(
    CONFIG,
    `servers:\n  faults:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(join(FIXTURES, 'faults.mjs'))}]\naudit:\n  arguments: redacted\n`,
  );
  const store = await openStore(join(DATA, 'carte.db'));
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const redacted = new AuditLog(store, quiet, { arguments: 'redacted' });
  const digest = new AuditLog(store, quiet, { arguments: 'digest' });
  const ctx = { projectId: 'team', scopes: ['call'], tokenId: 'tok_1', requestId: 'r1' };
  const ok = () => Promise.resolve({ content: [{ type: 'text', text: 'done' }] });
  await redacted.call(ctx, { key: 'faults/echo', server: 'faults', args: { token: GHP, text: 'hi' } }, ok);
  await digest.call(
    { projectId: 'default', scopes: ['*'] },
    { key: 'faults/slow', server: 'faults', args: { password: PASSWORD } },
    ok,
  );
  digest.event(ctx, { kind: 'search', detail: QUERY, outcome: 'ok', durationMs: 2 });
  await digest.settle();
  // A caller signed in through the team's identity provider (issue 31): its subject and client.
  const alice = { projectId: 'team', scopes: ['call'], subject: 'alice@example.com', client: 'cli-app' };
  await digest.call(alice, { key: 'faults/echo', server: 'faults', args: {} }, ok);
  await store.close();
});

describe('carte audit', () => {
  it('prints an aligned table, newest first, with no arguments', async () => {
    const r = await carte('audit');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^time \(UTC\)\s+kind\s+project\s+who\s+key\s+outcome\s+duration$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/).slice(1, 6))).toEqual([
      ['call', 'team', 'alice@example.com', 'faults/echo', 'ok'],
      ['search', 'team', 'tok_1', '-', 'ok'],
      ['call', 'default', '-', 'faults/slow', 'ok'],
      ['call', 'team', 'tok_1', 'faults/echo', 'ok'],
    ]);
    const columns = lines.map((l) =>
      l.indexOf(' kind') === -1 ? l.search(/ (search|call) /) : l.indexOf(' kind'),
    );
    expect(new Set(columns).size).toBe(1);
  });

  it('filters by project, tool and time; --json and export print only stored (redacted) arguments', async () => {
    const team = JSON.parse((await carte('audit', '--project', 'team', '--json')).stdout) as {
      kind: string;
    }[];
    expect(team.map((r) => r.kind)).toEqual(['call', 'search', 'call']);
    const alice = JSON.parse((await carte('audit', '--subject', 'alice@example.com', '--json')).stdout) as {
      key: string;
      subject: string;
      client: string;
    }[];
    expect(alice).toMatchObject([{ key: 'faults/echo', subject: 'alice@example.com', client: 'cli-app' }]);
    const tool = JSON.parse(
      (await carte('audit', '--tool', 'faults/slow', '--since', '1h', '--json')).stdout,
    ) as {
      args: unknown;
      argsDigest: string;
    }[];
    expect(tool).toMatchObject([{ args: null }]);
    expect(tool[0]!.argsDigest).toMatch(/^[0-9a-f]{16}$/);
    const exported = await carte('audit', 'export');
    expect(exported.code).toBe(0);
    const rows = exported.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; args: unknown });
    expect(rows.map((r) => r.key)).toEqual(['faults/echo', 'faults/slow', null, 'faults/echo']);
    expect(rows[0]!.args).toEqual({ token: '[redacted]', text: 'hi' });
    const all = [exported, await carte('audit'), await carte('audit', '--json')]
      .map((x) => x.stdout + x.stderr)
      .join('');
    for (const secret of [GHP, PASSWORD, QUERY]) expect(all).not.toContain(secret);
  });

  it('filters by outcome (issue 40: interrupted is one)', async () => {
    const ok = JSON.parse((await carte('audit', '--json', '--outcome', 'ok')).stdout) as unknown[];
    expect(ok.length).toBe(4);
    expect((await carte('audit', '--outcome', 'interrupted')).stdout).toBe('no audit rows match\n');
    const r = await carte('audit', '--outcome', 'broken');
    expect(r.code).toBe(64);
    expect(r.stderr).toBe(
      'carte: --outcome takes ok, tool_error, started, interrupted or an error code (denied, timeout...), not "broken"\n',
    );
  });

  it('refuses a bad action or flag with a message naming it', async () => {
    expect((await carte('audit', 'purge')).stderr).toBe(
      'carte: unknown audit action "purge"; the only action is "export"\n',
    );
    const r = await carte('audit', '--since', 'yesterday');
    expect(r.code).toBe(64);
    expect(r.stderr).toBe('carte: --since takes a duration such as 30m, 24h, 7d or 2w, not "yesterday"\n');
    // A negative value reaches the flag's own check (not "Unknown option `-1`"), spaced or with "=".
    for (const args of [['--limit', '-1'], ['--limit=-1']]) {
      const limit = await carte('audit', ...args);
      expect(limit.code).toBe(64);
      expect(limit.stderr).toBe('carte: --limit takes a whole number of at least 1, not "-1"\n');
    }
    expect((await carte('audit', '--since', '-2h')).stderr).toBe(
      'carte: --since takes a duration such as 30m, 24h, 7d or 2w, not "-2h"\n',
    );
  });
});
