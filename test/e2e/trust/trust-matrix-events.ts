import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { localCaller, projectsFromConfig, type CallerContext } from '../../../src/gateway/index.js';
import { fixture, harness, type Harness } from '../helpers.js';
import { connectFace } from './trust-matrix-setup.js';

// The trust matrix's rows for what upstreams send unasked (docs/mcp.md, "Logging and resource
// subscriptions"): one upstream connection serves every session, so its log messages and resource
// updates must reach only the sessions whose project sees that server. Two projects, each with a
// prompts-logs fixture of its own (2025 era: log messages and subscriptions are session-wide).
// An upstream's notification reaches the gateway before the call that caused it answers, and the
// gateway queues it to each session then; each check waits for the session's own last message and
// then pings it, so whatever leaked to it would have arrived before the check.

type Project = 'alpha' | 'beta';
const SERVERS: Record<Project, string> = { alpha: 'loga7', beta: 'logb7' };
const counter = (server: string) => `carte://${server}/fixture%3A%2F%2Fcounter`;

interface Session {
  client: Client;
  logs: unknown[];
  updated: string[];
}

/** Registers the rows; they run with the rest of trust-matrix.test.ts. */
export function describeEventsMatrix(): void {
  describe('upstream log messages and resource updates reach only the sessions that see the server', () => {
    let h: Harness;
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
    }, 60_000);
    afterAll(async () => {
      for (const c of open) await c.close().catch(() => undefined);
      await h?.close();
    });

    async function session(project: Project, scopes: string[] = ['call']): Promise<Session> {
      const ctx: CallerContext = { projectId: project, scopes };
      const client = await connectFace(h.gateway, ctx);
      open.push(client);
      const s: Session = { client, logs: [], updated: [] };
      client.setNotificationHandler('notifications/message', (n) => void s.logs.push(n.params.data));
      client.setNotificationHandler(
        'notifications/resources/updated',
        (n) => void s.updated.push(n.params.uri),
      );
      await client.setLoggingLevel('debug');
      return s;
    }

    /** A round trip per session: what was queued to it before is delivered by then. */
    const settled = (...sessions: Session[]) => Promise.all(sessions.map((s) => s.client.ping()));

    const call = (s: Session, key: string, args: Record<string, unknown> = {}) =>
      s.client.request({
        method: 'tools/call',
        params: { name: 'call_tool', arguments: { key, arguments: args } },
      });
    const log = (s: Session, project: Project, message: string) =>
      call(s, `${SERVERS[project]}/log`, { level: 'warning', message });

    it("a log message goes to the sessions of its server's project only", async () => {
      const alpha = await session('alpha');
      const beta = await session('beta');
      const searchOnly = await session('beta', ['search']);
      await log(alpha, 'alpha', 'from alpha');
      await log(beta, 'beta', 'from beta');
      await log(alpha, 'alpha', 'alpha last');
      await log(beta, 'beta', 'beta last');
      await expect.poll(() => alpha.logs).toContain('alpha last');
      await expect.poll(() => beta.logs).toContain('beta last');
      await expect.poll(() => searchOnly.logs).toContain('beta last');
      await settled(alpha, beta, searchOnly);
      expect(alpha.logs).toEqual(['from alpha', 'alpha last']);
      expect(beta.logs).toEqual(['from beta', 'beta last']);
      expect(searchOnly.logs).toEqual(['from beta', 'beta last']);
    });

    it("a resource update goes to its subscribers, and another project's resource cannot be subscribed", async () => {
      const alpha = await session('alpha');
      const beta = await session('beta');
      await expect(alpha.client.subscribeResource({ uri: counter(SERVERS.beta) })).rejects.toThrow(
        `unknown server "${SERVERS.beta}"`,
      );
      await expect(beta.client.subscribeResource({ uri: counter(SERVERS.alpha) })).rejects.toThrow(
        `unknown server "${SERVERS.alpha}"`,
      );
      await alpha.client.subscribeResource({ uri: counter(SERVERS.alpha) });
      await beta.client.subscribeResource({ uri: counter(SERVERS.beta) });
      await call(alpha, `${SERVERS.alpha}/touch`);
      await call(beta, `${SERVERS.beta}/touch`);
      await call(alpha, `${SERVERS.alpha}/touch`);
      await expect.poll(() => alpha.updated.length).toBe(2);
      await expect.poll(() => beta.updated.length).toBe(1);
      await settled(alpha, beta);
      expect(new Set(alpha.updated)).toEqual(new Set([counter(SERVERS.alpha)]));
      expect(beta.updated).toEqual([counter(SERVERS.beta)]);
      // Nor is another project's server reachable by its tools to make it speak.
      const r = (await call(alpha, `${SERVERS.beta}/log`, { level: 'warning', message: 'x' })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(new RegExp(`^unknown tool "${SERVERS.beta}/log"`));
    });

    it('a session without the call scope cannot subscribe', async () => {
      const searchOnly = await session('alpha', ['search']);
      await expect(searchOnly.client.subscribeResource({ uri: counter(SERVERS.alpha) })).rejects.toThrow(
        /call scope/,
      );
    });
  });
}
