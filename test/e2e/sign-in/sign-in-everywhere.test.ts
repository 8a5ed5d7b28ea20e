import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile } from '../../../src/config/index.js';
import { Gateway, LOCAL_CALLER as ME, openStore, serversFromConfig } from '../../../src/gateway/index.js';
import { createDatabase, PG_RUN_URL } from '../../../src/store/test-engines.js';
import { FIXTURES, memoryLogger, ROOT, startSdkExample, tempDir } from '../helpers.js';

// Slow: issue 41, "one sign-in, everywhere". A gateway running in this process (as `carte serve
// --http` or a daemon would) on the same store as the CLI, and on PostgreSQL a second replica:
// `carte auth login` in another process makes their next call work without a restart, and
// `carte auth logout` makes it need a sign-in again. The upstream is the MCP SDK's OAuth example.
const BIN = join(ROOT, 'bin', 'carte.js');
const KEY = Buffer.alloc(32, 17).toString('base64');
/** How long a replica may take to hear of the CLI's change (notifications; room for a loaded machine). */
const HEARD_WITHIN_MS = 10_000;
const tmp = tempDir('carte-everywhere-');
const CONFIG = join(tmp.dir, 'carte.yaml');
let example: { url: string; stop: () => void } | undefined;

afterAll(() => {
  example?.stop();
  tmp.cleanup();
});

beforeAll(async () => {
  example = await startSdkExample({ oauth: true });
  writeFileSync(CONFIG, `servers:\n  notes:\n    url: ${example.url}\n`);
}, 30_000);

function carte(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--config', CONFIG, ...args],
      {
        cwd: tmp.dir,
        env: { ...process.env, CARTE_CONFIG: '', BROWSER: join(FIXTURES, 'follow-redirects.mjs'), ...env },
        timeout: 60_000,
      },
      (err, _stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

/** A running gateway on `location`, with the config's servers as the CLI builds them. */
async function replica(location: string, keyFile?: string) {
  const store = await openStore(location, { secretKey: { key: KEY, ...(keyFile ? { file: keyFile } : {}) } });
  const servers = serversFromConfig(loadConfigFile(CONFIG, { env: {} }).config!);
  const gateway = await Gateway.open({ servers, store, logger: memoryLogger() });
  return {
    gateway,
    close: async () => {
      await gateway.close();
      await store.close();
    },
  };
}

/** The call's outcome: the greeting, or the error code. */
async function greet(gateway: Gateway): Promise<string> {
  try {
    return JSON.stringify(await gateway.callTool(ME, 'notes/greet', { name: 'Ada' })).includes('Hello, Ada!')
      ? 'greeted'
      : 'other';
  } catch (err) {
    return (err as { code?: string }).code ?? 'error';
  }
}

/** Polls until `greet` answers `want` on every gateway, or the time is up; the last answers. */
async function eventually(gateways: Gateway[], want: string): Promise<string[]> {
  const deadline = Date.now() + HEARD_WITHIN_MS;
  for (;;) {
    const got = await Promise.all(gateways.map(greet));
    if (got.every((g) => g === want) || Date.now() > deadline) return got;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const engines = [
  {
    name: 'sqlite',
    setUp: () => {
      const data = join(tmp.dir, 'data');
      mkdirSync(data, { recursive: true });
      return Promise.resolve({
        env: { CARTE_DATA_DIR: data, CARTE_DATABASE_URL: '', CARTE_SECRET_KEY: KEY },
        replicas: [() => replica(join(data, 'carte.db'))],
      });
    },
  },
  ...(PG_RUN_URL
    ? [
        {
          name: 'postgres',
          setUp: async () => {
            const url = await createDatabase();
            const env = {
              CARTE_DATA_DIR: join(tmp.dir, 'pg-cli'),
              CARTE_DATABASE_URL: url,
              CARTE_SECRET_KEY: KEY,
            };
            return { env, replicas: [() => replica(url), () => replica(url)] };
          },
        },
      ]
    : []),
];

describe.each(engines)('one sign-in everywhere on $name', (engine) => {
  it('a running gateway uses a sign-in the CLI made at once, and loses it at the CLI sign-out', async () => {
    const { env, replicas: makers } = await engine.setUp();
    const running = [];
    for (const make of makers) running.push(await make());
    const gateways = running.map((r) => r.gateway);
    try {
      for (const g of gateways) await g.sync(ME);
      expect(await Promise.all(gateways.map(greet))).toEqual(gateways.map(() => 'needs_sign_in'));
      const login = await carte(env, 'auth', 'login', 'notes');
      expect(login.stderr).toContain('opened the sign-in page for "notes" in a browser');
      expect(login.code).toBe(0);
      expect(await eventually(gateways, 'greeted')).toEqual(gateways.map(() => 'greeted'));
      expect((await carte(env, 'auth', 'logout', 'notes')).code).toBe(0);
      expect(await eventually(gateways, 'needs_sign_in')).toEqual(gateways.map(() => 'needs_sign_in'));
      const [s] = gateways[0]!.listServers(ME);
      expect(s).toMatchObject({ id: 'notes', state: 'needs_sign_in' });
    } finally {
      for (const r of running) await r.close();
    }
  });
});
