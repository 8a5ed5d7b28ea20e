// One catalog behind both faces for e2e tests: a gateway's /mcp on a real socket, and the built
// CLI's `carte serve` over stdio on a carte.yaml naming the same fixtures; and MCP clients of
// either face that keep the log messages and resource updates they hear.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createToken, LOCAL_CALLER as ME } from '../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpServerHandle } from '../../src/http/index.js';
import { FIXTURES, fixture, harness, ROOT, tempDir, type Harness } from './helpers.js';

export type Face = 'http' | 'stdio';
export const FACES: readonly Face[] = ['http', 'stdio'];

/** A fixture server of test/fixtures, as a gateway server and as a carte.yaml entry. */
export interface FaceFixture {
  id: string;
  file: string;
  env?: Record<string, string>;
}

/** The `servers:` entry of carte.yaml that runs a fixture with this node. */
export function fixtureEntry({ id, file, env }: FaceFixture): string {
  const vars = Object.entries(env ?? {}).map(([k, v]) => `${k}: ${v}`);
  return [
    `  ${id}:`,
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(join(FIXTURES, file))}]`,
    ...(vars.length ? [`    env: { ${vars.join(', ')} }`] : []),
  ].join('\n');
}

/** The built CLI's `carte serve` arguments on a config file and a data dir, then `rest`. */
export function serveArgs(config: string, dataDir: string, ...rest: string[]): string[] {
  return [join(ROOT, 'bin', 'carte.js'), 'serve', '--config', config, '--data-dir', dataDir, ...rest];
}

/** A stdio transport to the built CLI's `carte serve`. */
export function serveOverStdio(config: string, dataDir: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: serveArgs(config, dataDir),
    stderr: 'pipe',
  });
}

/** A client of one face and what it heard: `notifications/message` params, updated resource URIs. */
export interface FaceClient {
  client: Client;
  seen: { logs: Array<{ level: string; logger?: string; data: unknown }>; updated: string[] };
}

export interface Faces {
  harness: Harness;
  /** The HTTP face's /mcp URL, and a bearer token of scope `call` for it. */
  mcpUrl: string;
  token: string;
  /** A fresh transport to the face: /mcp with a `call` token, or a `carte serve` process. */
  transport(face: Face): Transport;
  /** Connects a client (closed by `close`) that records the log messages and updates it hears. */
  connect(face: Face, name: string, options?: ConstructorParameters<typeof Client>[1]): Promise<FaceClient>;
  close(): Promise<void>;
}

/** Both faces over the given fixtures: the gateway synced, a `call` token for /mcp, the config written. */
export async function openFaces(fixtures: readonly FaceFixture[]): Promise<Faces> {
  const tmp = tempDir();
  const clients: Client[] = [];
  const h = await harness(fixtures.map((f) => fixture(f.id, f.file, f.env ? { env: f.env } : {})));
  let server: HttpServerHandle | undefined;
  const close = async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await server?.stop();
    await h.close();
    tmp.cleanup();
  };
  try {
    await h.gateway.sync(ME);
    const { token } = await createToken(h.store, { project: 'default', scopes: ['call'] }, Date.now());
    server = await listenHttp(createHttpApp({ gateway: h.gateway, store: h.store }), {
      host: '127.0.0.1',
      port: 0,
    });
    const config = join(tmp.dir, 'carte.yaml');
    writeFileSync(config, ['servers:', ...fixtures.map(fixtureEntry), ''].join('\n'));
    const url = new URL(`${server.url}/mcp`);
    const transport = (face: Face): Transport =>
      face === 'http'
        ? new StreamableHTTPClientTransport(url, {
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          })
        : serveOverStdio(config, join(tmp.dir, 'data'));
    const connect: Faces['connect'] = async (face, name, options) => {
      const client = new Client({ name, version: '0' }, options);
      const seen: FaceClient['seen'] = { logs: [], updated: [] };
      client.setNotificationHandler('notifications/message', (n) => void seen.logs.push(n.params));
      client.setNotificationHandler(
        'notifications/resources/updated',
        (n) => void seen.updated.push(n.params.uri),
      );
      await client.connect(transport(face));
      clients.push(client);
      return { client, seen };
    };
    return { harness: h, mcpUrl: url.href, token, transport, connect, close };
  } catch (err) {
    await close();
    throw err;
  }
}
