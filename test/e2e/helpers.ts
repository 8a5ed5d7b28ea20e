import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import {
  Gateway,
  openStore,
  type GatewayOptions,
  type GatewayServer,
  type Logger,
  type Store,
} from '../../src/gateway/index.js';
import { MODERN_REVISION } from '../../src/http/plain-call.js';

const require = createRequire(import.meta.url);
export const ROOT = join(import.meta.dirname, '..', '..');
export const FIXTURES = join(ROOT, 'test', 'fixtures');

/** The entry file of an installed reference server. */
export function referenceEntry(pkg: string): string {
  return join(require.resolve(`@modelcontextprotocol/${pkg}/package.json`), '..', 'dist', 'index.js');
}

/**
 * The MCP SDK's example server (`simpleStreamableHttp.js`), with `oauth` a protected MCP server and
 * its authorization server (which approves at once, without a page: following the redirects of its
 * authorization URL lands on the client's redirect URI). `url` names `localhost`, the resource its
 * protected-resource metadata names. Without `oauth`, the same server asks for no sign-in.
 */
export async function startSdkExample(
  options: { oauth?: boolean } = {},
): Promise<{ url: string; stop: () => void }> {
  const entry = join(
    ROOT,
    'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js',
  );
  const [port, authPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
  const child = spawn(process.execPath, [entry, ...(options.oauth ? ['--oauth'] : [])], {
    env: { ...process.env, MCP_PORT: String(port), MCP_AUTH_PORT: String(authPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (/listening on port/i.test(out) && out.includes(String(port))) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the SDK example server exited with ${code}: ${out}`)));
  });
  return { url: `http://localhost:${port}/mcp`, stop: () => void child.kill('SIGKILL') };
}

/** A loopback port that was free a moment ago (for a program that takes its port from its env). */
export async function freeLoopbackPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

export function tempDir(prefix = 'carte-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Stores in temporary data dirs for one test file: `open()` makes one, `track()` adds another
 * connection to be closed; all are closed and the dirs removed after each test (call at top level).
 */
export function tempStores(
  prefix: string,
  afterEach: (fn: () => Promise<void>) => void,
): { open: () => Promise<Store>; track: (store: Store) => Store } {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  return {
    async open() {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      const store = await openStore(join(dir, 'carte.db'));
      stores.push(store);
      return store;
    },
    track(store) {
      stores.push(store);
      return store;
    },
  };
}

/** A stdio server for the gateway, with its config hash over the target. */
export function stdioServer(
  id: string,
  args: string[],
  extra: Partial<GatewayServer> & { env?: Record<string, string> } = {},
): GatewayServer {
  const { env = {}, ...rest } = extra;
  const target = { kind: 'stdio' as const, command: process.execPath, args, env };
  return {
    id,
    enabled: true,
    timeoutMs: 20_000,
    discoveryTimeoutMs: 20_000,
    idleTimeoutMs: 0,
    maxConcurrency: 16,
    maxQueue: 64,
    configHash: createHash('sha256').update(JSON.stringify(target)).digest('hex'),
    target,
    display: args.join(' '),
    ...rest,
  };
}

/** The reference everything, filesystem (on <dir>/sandbox) and memory servers, as the demo runs them. */
export function referenceServers(dir: string): GatewayServer[] {
  mkdirSync(join(dir, 'sandbox'), { recursive: true });
  return [
    stdioServer('everything', [referenceEntry('server-everything'), 'stdio']),
    stdioServer('filesystem', [referenceEntry('server-filesystem'), join(dir, 'sandbox')]),
    stdioServer('memory', [referenceEntry('server-memory')], {
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    }),
  ];
}

export function fixture(
  id: string,
  file: string,
  extra: Parameters<typeof stdioServer>[2] = {},
): GatewayServer {
  return stdioServer(id, [join(FIXTURES, file)], extra);
}

/** test/fixtures/http-server.mjs on a random port, its process pushed to `children` (to kill); resolves to its /mcp URL. */
export function startHttpFixture(
  children: ChildProcess[],
  env: Record<string, string> = {},
): Promise<string> {
  const child = spawn(process.execPath, [join(FIXTURES, 'http-server.mjs')], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`http fixture exited with ${code}`)));
  });
}

/** Logger that keeps lines for assertions and stays quiet. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (l: string) => (m: string) => void lines.push(`${l}: ${m}`);
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export interface Harness {
  gateway: Gateway;
  store: Store;
  dir: string;
  close(): Promise<void>;
}

/**
 * A gateway over a real SQLite file in a temp dir. `seed` writes to the store before the gateway
 * opens (after the servers' config hashes are recorded, so their rows are kept): the gateway reads
 * its catalog at open and notices only quarantine changes made behind its back.
 */
export async function harness(
  servers: GatewayServer[],
  dir = tempDir().dir,
  extra: Partial<Omit<GatewayOptions, 'servers' | 'store'>> = {},
  seed?: (store: Store) => Promise<void>,
): Promise<Harness> {
  const store = await openStore(join(dir, 'carte.db'));
  if (seed) {
    for (const s of servers) await store.servers.reconcileConfig(s.id, s.configHash);
    await seed(store);
  }
  const gateway = await Gateway.open({ servers, store, logger: memoryLogger(), ...extra }).catch(
    async (err: unknown) => {
      await store.close();
      throw err;
    },
  );
  return {
    gateway,
    store,
    dir,
    close: async () => {
      await gateway.close();
      await store.close();
    },
  };
}

/** The headers of a plain modern-era `call_tool` POST (the HTTP plain-call and node-lane tests). */
export const MODERN_CALL_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN_REVISION,
  'mcp-method': 'tools/call',
  'mcp-name': 'call_tool',
};

/** The bare `_meta` envelope of a modern-era request from a client named `client`. */
export const modernEnvelope = (client: string) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientInfo': { name: client, version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});
