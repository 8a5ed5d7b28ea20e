import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import {
  createToken,
  localCaller,
  projectsFromConfig,
  type CallerContext,
} from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpServerHandle } from '../../../src/http/index.js';
import { serveMcpStdio } from '../../../src/mcp/index.js';
import { fixture, harness, type Harness } from '../helpers.js';
import { connectFace } from './trust-matrix-setup.js';

// The trust matrix's 2026-era rows for what upstreams send unasked: a `subscriptions/listen` stream
// (src/http/mcp-listen.ts on /mcp, src/mcp/stdio-listen.ts on stdio) of a caller in project alpha
// never carries a log message or a resource update of a server only project beta sees, and cannot
// name one of its resources. One gateway, one upstream connection per server for every session:
// beta's server speaks (a 2025-era beta session asks for its log messages, so it sends them), then
// alpha's own server last; alpha's stream carries its update after anything leaked to it before.

type Project = 'alpha' | 'beta';
const SERVERS: Record<Project, string> = { alpha: 'loga8', beta: 'logb8' };
const counter = (server: string) => `carte://${server}/fixture%3A%2F%2Fcounter`;

interface Listener {
  client: Client;
  logs: unknown[];
  updated: string[];
}

/** A client transport over a stdio connection served in-process (serveMcpStdio on PassThrough streams). */
class PipeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private buffer = '';

  constructor(
    private readonly fromServer: PassThrough,
    private readonly toServer: PassThrough,
  ) {}

  start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString();
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim()) this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
      }
    });
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(`${JSON.stringify(message)}\n`);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }
}

/** Registers the rows; they run with the rest of trust-matrix.test.ts. */
export function describeListenMatrix(): void {
  describe.each(['http', 'stdio'] as const)(
    '%s face: a 2026-era listen stream carries nothing of a server its project does not see',
    (face) => {
      let h: Harness;
      let http: HttpServerHandle | undefined;
      const stdio: ReturnType<typeof serveMcpStdio>[] = [];
      const open: Client[] = [];

      beforeAll(async () => {
        const env = { env: { FIXTURE_ERA: 'legacy' } };
        const projects = projectsFromConfig({
          projects: {
            alpha: { servers: [SERVERS.alpha], rules: [], deny: [], confirm: [] },
            beta: { servers: [SERVERS.beta], rules: [], deny: [], confirm: [] },
          },
        });
        h = await harness(
          [fixture(SERVERS.alpha, 'prompts-logs.mjs', env), fixture(SERVERS.beta, 'prompts-logs.mjs', env)],
          undefined,
          { projects },
        );
        await h.gateway.sync(localCaller('alpha'));
        if (face === 'http')
          http = await listenHttp(createHttpApp({ gateway: h.gateway, store: h.store }), {
            host: '127.0.0.1',
            port: 0,
          });
      }, 60_000);
      afterAll(async () => {
        for (const c of open) await c.close().catch(() => undefined);
        for (const s of stdio) await s.close().catch(() => undefined);
        await http?.stop();
        await h?.close();
      });

      /** A 2026-era client of `project` (scope call) on this face, keeping what it hears. */
      async function modern(project: Project): Promise<Listener> {
        const client = new Client(
          { name: `listen-${project}`, version: '0' },
          {
            versionNegotiation: { mode: 'auto' },
          },
        );
        const l: Listener = { client, logs: [], updated: [] };
        client.setNotificationHandler('notifications/message', (n) => void l.logs.push(n.params.data));
        client.setNotificationHandler(
          'notifications/resources/updated',
          (n) => void l.updated.push(n.params.uri),
        );
        await client.connect(await transport(project));
        open.push(client);
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        return l;
      }

      async function transport(project: Project): Promise<Transport> {
        if (face === 'http') {
          const projects = new Set<string>(['alpha', 'beta']);
          const made = await createToken(h.store, { project, scopes: ['call'], projects }, Date.now());
          const headers = { authorization: `Bearer ${made.token}` };
          return new StreamableHTTPClientTransport(new URL(`${http!.url}/mcp`), { requestInit: { headers } });
        }
        const [stdin, stdout] = [new PassThrough(), new PassThrough()];
        const caller: CallerContext = { projectId: project, scopes: ['call'] };
        stdio.push(serveMcpStdio(h.gateway, () => undefined, { caller, stdin, stdout }));
        return new PipeTransport(stdout, stdin);
      }

      const call = (c: Client, key: string, args: Record<string, unknown> = {}) =>
        c.request({
          method: 'tools/call',
          params: { name: 'call_tool', arguments: { key, arguments: args } },
        });

      it("cannot name a resource of the other project's server", async () => {
        const alpha = await modern('alpha');
        await expect(
          alpha.client.listen({ resourceSubscriptions: [counter(SERVERS.beta)] }),
        ).rejects.toMatchObject({
          code: -32602,
          message: expect.stringMatching(new RegExp(`^unknown server "${SERVERS.beta}"`)) as string,
        });
      });

      it("carries its own server's updates only, and no log message at all", async () => {
        const alpha = await modern('alpha');
        const beta = await modern('beta');
        const alphaSub = await alpha.client.listen({ resourceSubscriptions: [counter(SERVERS.alpha)] });
        const betaSub = await beta.client.listen({ resourceSubscriptions: [counter(SERVERS.beta)] });
        // A 2025-era beta session asks for log messages: beta's server sends them to the gateway.
        const legacy = await connectFace(h.gateway, { projectId: 'beta', scopes: ['call'] });
        open.push(legacy);
        const legacyLogs: unknown[] = [];
        legacy.setNotificationHandler('notifications/message', (n) => void legacyLogs.push(n.params.data));
        await legacy.setLoggingLevel('debug');

        await call(beta.client, `${SERVERS.beta}/log`, { level: 'error', message: 'beta speaks' });
        await call(beta.client, `${SERVERS.beta}/touch`);
        await expect.poll(() => beta.updated).toEqual([counter(SERVERS.beta)]);
        await expect.poll(() => legacyLogs).toContain('beta speaks');
        // Alpha's own server last: whatever reached alpha's stream before has arrived by its update.
        await call(alpha.client, `${SERVERS.alpha}/log`, { level: 'error', message: 'alpha speaks' });
        await call(alpha.client, `${SERVERS.alpha}/touch`);
        await expect.poll(() => alpha.updated.length).toBeGreaterThan(0);
        expect(alpha.updated).toEqual([counter(SERVERS.alpha)]);
        expect(alpha.logs).toEqual([]);
        expect(beta.updated).toEqual([counter(SERVERS.beta)]);
        expect(beta.logs).toEqual([]);
        await alphaSub.close();
        await betaSub.close();
      });
    },
  );
}
