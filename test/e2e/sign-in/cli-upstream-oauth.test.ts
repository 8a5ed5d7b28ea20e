import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, ROOT, startSdkExample, tempDir } from '../helpers.js';

// Slow: issue 41 end to end with the built CLI against the MCP SDK's own OAuth example server
// (`simpleStreamableHttp.js --oauth`: a protected MCP server and its authorization server, which
// approves at once). `carte sync` says it needs a sign-in; `carte auth login` with $BROWSER set to
// a script that follows redirects signs in; then sync and call work; logout forgets it.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
const DATA = join(tmp.dir, 'data');
const CONFIG = join(tmp.dir, 'carte.yaml');
let example: { url: string; stop: () => void } | undefined;
const outputs: string[] = [];

afterAll(() => {
  example?.stop();
  tmp.cleanup();
});

function carte(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CARTE_CONFIG: '',
    BROWSER: join(FIXTURES, 'follow-redirects.mjs'),
  };
  delete env.CARTE_SECRET_KEY;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', DATA, '--config', CONFIG, ...args],
      { cwd: tmp.dir, env, timeout: 60_000 },
      (err, stdout, stderr) => {
        outputs.push(stdout, stderr);
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  example = await startSdkExample({ oauth: true });
  // The example's protected-resource metadata names `localhost`: the URL must be that resource.
  writeFileSync(CONFIG, `servers:\n  notes:\n    url: ${example.url}\n`);
}, 30_000);

describe('carte auth with the SDK example OAuth server', () => {
  it('sync says needs_sign_in and names carte auth login', async () => {
    const r = await carte('sync');
    expect(r.code).toBe(77);
    // The command named repeats the run's --config and --data-dir: it signs in to the same store.
    expect(r.stderr).toContain(
      `carte: 1 of 1 server needs a sign-in: notes; run \`carte auth login notes --config ${CONFIG} --data-dir ${DATA}\``,
    );
    expect(r.stdout).toMatch(/notes\s+needs_sign_in/);
    expect(r.stderr).not.toMatch(/SSE/);
  });

  it('auth login signs in through $BROWSER and the loopback redirect; sync and call then work', async () => {
    const login = await carte('auth', 'login', 'notes');
    expect(login.stderr).toContain('opened the sign-in page for "notes" in a browser');
    expect(login.stdout).toMatch(/^signed in to "notes" \(scopes: mcp:tools\); the token expires \S+Z\n/);
    expect(login.stdout).toContain('synced "notes": 7 tools');
    expect(login.code).toBe(0);
    const call = await carte('call', 'notes/greet', '--args', '{"name":"Ada"}');
    expect(call.stdout).toContain('Hello, Ada!');
    const status = JSON.parse((await carte('auth', 'status', '--json')).stdout) as unknown[];
    expect(status).toEqual([
      expect.objectContaining({
        server: 'notes',
        state: 'signed_in',
        scope: 'mcp:tools',
        refreshable: false,
      }),
    ]);
    expect((await carte('sync')).code).toBe(0);
  });

  it('keeps no token readable: the store holds none in clear, no output shows one, the key file is 0600', async () => {
    // The example's tokens and DCR client ids are UUIDs: none may appear in the database file.
    const db = readFileSync(join(DATA, 'carte.db')).toString('latin1');
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
    expect(db).not.toMatch(uuid);
    expect(db).not.toContain('access_token');
    const servers = await carte('servers', '--json');
    for (const o of outputs) expect(o).not.toMatch(/access_token|refresh_token|Bearer [0-9a-f]/);
    expect(servers.stdout).not.toMatch(uuid);
    const { statSync } = await import('node:fs');
    expect(statSync(join(DATA, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  it('auth logout forgets the sign-in; the next sync needs one again', async () => {
    const out = await carte('auth', 'logout', 'notes');
    expect(out.stdout).toBe(
      `signed out of "notes": the server offers no revocation, and Carte forgot them; \`carte auth login notes --config ${CONFIG} --data-dir ${DATA}\` signs in again\n`,
    );
    const r = await carte('sync');
    expect(r.code).toBe(77);
  });

  it('the audit log has a row for the sign-in and one for the sign-out, with no token', async () => {
    const audit = await carte('audit', '--json');
    const rows = (
      JSON.parse(audit.stdout) as { kind: string; server?: string; outcome: string; detail?: string }[]
    )
      .filter((r) => r.kind === 'auth')
      .map(({ server, outcome, detail }) => ({ server, outcome, detail }));
    expect(rows).toEqual(
      expect.arrayContaining([
        { server: 'notes', outcome: 'ok', detail: 'upstream sign-in (scope mcp:tools)' },
        { server: 'notes', outcome: 'ok', detail: 'upstream sign-out (not_offered)' },
      ]),
    );
    expect(audit.stdout).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });
});
