import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadConfigFile } from '../../../src/config/index.js';
import {
  CallbackDesk,
  createToken,
  Gateway,
  LOCAL_CALLER as ME,
  openStore,
  serversFromConfig,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp } from '../../../src/http/index.js';
import { createMcpServer } from '../../../src/mcp/index.js';
import { memoryLogger, startSdkExample, tempDir } from '../helpers.js';

// Slow: issue 41, "in the middle of an agent's work" (MCP 2025-11-25 URL elicitation, SEP-1036).
// An SDK client that declares `elicitation.url` calls a tool of the SDK's OAuth example server
// while Carte has no sign-in: Carte asks it to open the authorization page (elicitation/create,
// mode url, an elicitationId), receives the code (a loopback listener in process; the HTTP face's
// /oauth/callback over HTTP), sends notifications/elicitation/complete and the call completes.
// A client without it gets the error naming `carte auth login`.
const KEY = Buffer.alloc(32, 23).toString('base64');
const tmp = tempDir('carte-elicit-');
const CONFIG = join(tmp.dir, 'carte.yaml');
let example: { url: string; stop: () => void } | undefined;

beforeAll(async () => {
  example = await startSdkExample({ oauth: true });
  writeFileSync(CONFIG, `servers:\n  notes:\n    url: ${example.url}\n`);
}, 30_000);

afterAll(() => {
  example?.stop();
  tmp.cleanup();
});

async function gatewayOn(name: string): Promise<{ gateway: Gateway; store: Store }> {
  const store = await openStore(join(tmp.dir, `${name}.db`), { secretKey: { key: KEY } });
  const servers = serversFromConfig(loadConfigFile(CONFIG, { env: {} }).config!);
  const gateway = await Gateway.open({ servers, store, logger: memoryLogger() });
  await gateway.sync(ME);
  return { gateway, store };
}

/** An SDK client; with `url`, it declares URL elicitation and "opens" each page by following its redirects. */
function client(url: boolean) {
  const c = new Client(
    { name: 'elicit-test', version: '1.0.0' },
    { capabilities: url ? { elicitation: { url: {} } } : {} },
  );
  const asked: { mode?: string; url?: string; elicitationId?: string; message?: string }[] = [];
  const completed: string[] = [];
  if (url) {
    c.setRequestHandler('elicitation/create', (req) => {
      const p = req.params as { mode?: string; url?: string; elicitationId?: string; message?: string };
      asked.push(p);
      void fetch(p.url!, { redirect: 'follow' }).then((r) => r.text());
      return Promise.resolve({ action: 'accept' as const });
    });
    c.setNotificationHandler('notifications/elicitation/complete', (n) => {
      completed.push((n.params as { elicitationId: string }).elicitationId);
    });
  }
  return { c, asked, completed };
}

const GREET = { name: 'call_tool', arguments: { key: 'notes/greet', arguments: { name: 'Ada' } } };
const textOf = (r: unknown) => JSON.stringify((r as { content: unknown }).content);

describe('a signed-out call from an MCP client', () => {
  it('without URL elicitation fails naming carte auth login', async () => {
    const { gateway, store } = await gatewayOn('plain');
    const { c } = client(false);
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(gateway);
    await server.connect(a);
    await c.connect(b);
    try {
      const r = await c.callTool(GREET);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('run `carte auth login notes`');
    } finally {
      await c.close();
      await gateway.close();
      await store.close();
    }
  });

  it('with URL elicitation (stdio-like, loopback callback) signs in and completes the call', async () => {
    const { gateway, store } = await gatewayOn('stdio');
    const { c, asked, completed } = client(true);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(gateway).connect(a);
    await c.connect(b);
    try {
      const r = await c.callTool(GREET);
      expect(textOf(r)).toContain('Hello, Ada!');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({
        mode: 'url',
        message: 'Server "notes" needs you to sign in: open this page to let Carte use it for you.',
      });
      expect(new URL(asked[0]!.url!).searchParams.get('redirect_uri')).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
      );
      await expect.poll(() => completed).toEqual([asked[0]!.elicitationId]);
    } finally {
      await c.close();
      await gateway.close();
      await store.close();
    }
  });

  it("with URL elicitation over HTTP comes back to the face's /oauth/callback", async () => {
    const { gateway, store } = await gatewayOn('http');
    const app = createHttpApp({ gateway, store, env: {}, dataDir: tmp.dir, anonymousProject: 'default' });
    const server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
    gateway.callbackDesk = new CallbackDesk(`${server.url}/oauth/callback`);
    const { c, asked, completed } = client(true);
    const connect = async (scope: string) => {
      const { token } = await createToken(store, { project: 'default', scopes: [scope] }, Date.now());
      const headers = { authorization: `Bearer ${token}` };
      await c.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
      );
    };
    try {
      // The shared sign-in is everyone's: a caller with the call scope only is not asked to make it.
      await connect('call');
      const refused = await c.callTool(GREET);
      expect(textOf(refused)).toContain(
        'server \\"notes\\" needs a sign-in, which only an admin may make for everyone; ask one to run `carte auth login notes`',
      );
      expect(asked).toEqual([]);
      await c.close();
      await connect('admin');
      const r = await c.callTool(GREET);
      expect(textOf(r)).toContain('Hello, Ada!');
      expect(new URL(asked[0]!.url!).searchParams.get('redirect_uri')).toBe(`${server.url}/oauth/callback`);
      await expect.poll(() => completed).toEqual([asked[0]!.elicitationId]);
      const stray = await fetch(`${server.url}/oauth/callback?code=x&state=nobody`);
      expect(stray.status).toBe(400);
    } finally {
      await c.close();
      await server.stop();
      await app.close();
      await gateway.close();
      await store.close();
    }
  });
});
