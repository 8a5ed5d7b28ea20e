// Starts the built CLI as the user would for the web menu's test: a config of real servers, a
// proposal waiting for approval, an admin token, then `carte serve --http --port 0`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, ROOT, referenceEntry, tempDir } from '../e2e/helpers.js';

const BIN = join(ROOT, 'bin', 'carte.js');

export interface CarteProcess {
  /** Origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The printed one-time login link. */
  loginUrl: string;
  /** An admin token made with `carte token create`. */
  adminToken: string;
  /** The id of the proposal that waits (server "memory"). */
  pendingId: string;
  stop(): Promise<void>;
}

/** How `startCarte` may differ from the usual set-up. */
export interface CarteOptions {
  /** More servers, by id, each a remote URL (the sign-in test's OAuth server). */
  remote?: Record<string, string>;
  /** Remote servers with `oauth: { identity: per-user }`, by id (needs `oidc`). */
  perUser?: Record<string, string>;
  /** `auth.oidc`: an identity provider whose `carte:call` scope maps to call. */
  oidc?: { issuer: string; audience: string };
}

export async function startCarte(options: CarteOptions = {}): Promise<CarteProcess> {
  const tmp = tempDir('carte-browser-');
  const dir = tmp.dir;
  const config = join(dir, 'carte.yaml');
  const q = (s: string) => JSON.stringify(s);
  mkdirSync(join(dir, 'sandbox'));
  writeFileSync(
    config,
    [
      'servers:',
      '  everything:',
      `    command: ${q(process.execPath)}`,
      `    args: [${q(referenceEntry('server-everything'))}, stdio]`,
      '  hostile:',
      `    command: ${q(process.execPath)}`,
      `    args: [${q(join(import.meta.dirname, 'hostile-server.mjs'))}]`,
      // Shown with its grant and limits on the Servers page (it starts only where bwrap does).
      '  boxed:',
      `    command: ${q(process.execPath)}`,
      `    args: [${q(join(FIXTURES, 'paginated.mjs'))}]`,
      '    sandbox: { network: [registry.npmjs.org, "localhost:5173"], memoryMb: 256, maxProcesses: 32 }',
      ...Object.entries(options.remote ?? {}).map(([id, url]) => `  ${id}: { url: ${q(url)} }`),
      ...Object.entries(options.perUser ?? {}).map(
        ([id, url]) => `  ${id}: { url: ${q(url)}, oauth: { identity: per-user } }`,
      ),
      ...(options.oidc
        ? [
            'auth:',
            `  oidc: { issuer: ${q(options.oidc.issuer)}, audience: ${q(options.oidc.audience)}, scopeMap: { "carte:call": [call] } }`,
          ]
        : []),
      'rules:',
      "  - { match: 'everything/echo', pin: true }",
      // Only this exact node is approved at once; `node` from PATH is not it, so memory waits.
      'registration:',
      '  allow:',
      `    commands: [${q(process.execPath)}]`,
      // Every token's default rate, far above what the tests send: the tokens view shows it.
      'http:',
      '  rate: 100000/m',
      '',
    ].join('\n'),
  );
  const proposal = join(dir, 'proposal.yaml');
  writeFileSync(
    proposal,
    [
      'servers:',
      '  memory:',
      '    command: node',
      `    args: [${q(referenceEntry('server-memory'))}]`,
      `    env: { MEMORY_FILE_PATH: ${q(join(dir, 'memory.jsonl'))} }`,
      '',
    ].join('\n'),
  );
  const base = ['--data-dir', join(dir, 'data'), '--config', config];
  const registered = await run([...base, 'register', proposal], dir);
  const pending = /^pending memory: (prop_[a-z0-9]+)/m.exec(registered);
  if (!pending) throw new Error(`carte register did not leave memory pending:\n${registered}`);
  const adminToken = (
    await run([...base, 'token', 'create', '--project', 'default', '--scope', 'admin'], dir)
  ).trim();

  const child = spawn(process.execPath, [BIN, ...base, 'serve', '--http', '--port', '0'], {
    cwd: dir,
    env: { ...process.env, CARTE_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const loginUrl = await waitForLine(child, /(http:\/\/127\.0\.0\.1:\d+)\/#login=\S+/);
  return {
    url: new URL(loginUrl).origin,
    loginUrl,
    adminToken,
    pendingId: pending[1]!,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      tmp.cleanup();
    },
  };
}

/** Runs the CLI to the end; resolves to its stdout, or rejects with both streams. */
function run(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: { ...process.env, CARTE_CONFIG: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`carte ${args.join(' ')}: ${stderr}${stdout}`)) : resolve(stdout),
    );
  });
}

/** The first match of `pattern` in the process's output; rejects if it exits first. */
function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  let seen = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const m = pattern.exec(seen);
      if (m) resolve(m[0]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`carte serve --http exited (${code}) before printing its URL:\n${seen}`)),
    );
  });
}
