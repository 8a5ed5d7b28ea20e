import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listTokens,
  resolveBearer,
  type CallerContext,
  type Gateway,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, type HttpApp } from '../../../src/http/index.js';
import { PROJECT_SERVERS, SERVER, type ProjectId } from './trust-matrix-setup.js';

// The trust matrix's REST part (issue 30): the routes the web menu's #/activity and #/tokens read.
// Every token (each project x each scope, as the matrix made them) asks each route; an answer
// carries its own project's rows only, its numbers match that project's audit rows, and no
// byte names another project's server, tool, token id or any secret.

export interface RestMatrixWorld {
  gateway: Gateway;
  store: Store;
  projects: ProjectId[];
  callers: { project: ProjectId; scope: 'search' | 'call' | 'admin'; label: string }[];
  tokens: Map<string, { token: string; ctx: CallerContext }>;
  /** Config values and secrets no answer may carry. */
  needles: () => string[];
}

/** One call (and one failed call) and one ended session per project, so each has rows to show. */
const OWN_CALLS: Record<ProjectId, [string, Record<string, unknown>]> = {
  alpha: [`${SERVER.kitchen}/echo`, { message: 'rest matrix' }],
  beta: [`${SERVER.notebook}/read_graph`, {}],
};

export function describeRestMatrix(world: () => RestMatrixWorld): void {
  describe("the web menu's REST routes answer each token with its project only", () => {
    let app: HttpApp;
    let w: RestMatrixWorld;
    const get = async (token: string, path: string, init: RequestInit = {}) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (init.body) headers['content-type'] = 'application/json';
      const res = await app.request(`http://127.0.0.1/api/v1${path}`, { ...init, headers });
      return { status: res.status, text: await res.text() };
    };

    beforeAll(async () => {
      w = world();
      app = createHttpApp({ gateway: w.gateway, store: w.store });
      for (const p of w.projects) {
        const ctx = w.tokens.get(`${p}/call`)!.ctx;
        const [key, args] = OWN_CALLS[p];
        await w.gateway.callTool(ctx, key, args);
        await w.gateway.callTool(ctx, key, { unexpected: { deeply: ['wrong'] } }).catch(() => undefined);
        w.gateway.endSession(ctx, { startedAt: Date.now() - 1000, tokensSent: 10 });
      }
      // Session rows are written off the request's path (the listing is counted first): wait for them.
      const ended = async (p: string) => (await w.store.activity.sessionStats({ project: p })).sessions > 0;
      for (let tries = 0; !(await ended('alpha')) || !(await ended('beta')); tries++) {
        if (tries === 300) throw new Error('the ended sessions were not recorded within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // One tool held in each project (after the calls above): /approvals must name only its own.
      for (const p of w.projects) {
        const server = PROJECT_SERVERS[p][0];
        const tool = (await w.store.tools.listByServer(server))[0]!;
        held[p] = `${server}/${tool.name}`;
        await w.store.trust.putQuarantine({
          key: held[p],
          serverId: server,
          kind: 'drift',
          reason: 'changed since it was approved',
          findings: [],
          since: Date.now(),
        });
      }
    }, 60_000);
    afterAll(async () => {
      await w?.store.trust.release(Object.values(held));
      await app?.close();
    });
    const held: Record<string, string> = {};

    /** What `project` may not be shown: the other project's servers and token ids, and every secret. */
    function forbidden(project: ProjectId, otherTokenIds: Set<string>): string[] {
      const otherServers = Object.values(SERVER).filter(
        (s) => !(PROJECT_SERVERS[project] as readonly string[]).includes(s),
      );
      return [...otherServers, ...otherTokenIds, ...w.needles()];
    }

    it.each([0, 1, 2, 3, 4, 5])('caller %i: activity, audit, export and tokens', async (i) => {
      const c = w.callers[i]!;
      const { token } = w.tokens.get(c.label)!;
      const otherIds = new Set(
        (await listTokens(w.store)).filter((t) => t.project !== c.project).map((t) => t.id),
      );
      const shown: string[] = [];
      const own = PROJECT_SERVERS[c.project] as readonly string[];
      for (const range of ['hour', 'week']) {
        const r = await get(token, `/activity?range=${range}`);
        expect(r.status).toBe(200);
        shown.push(r.text);
        const a = JSON.parse(r.text) as {
          project: string;
          since: string;
          calls: number;
          errors: number;
          sessions: number;
          series: { calls: number; errors: number }[];
          servers: { server: string; calls: number }[];
          topTools: { key: string }[];
        };
        expect(a.project).toBe(c.project);
        expect(a.series.length).toBe(range === 'hour' ? 60 : 168);
        expect(a.sessions).toBeGreaterThan(0);
        // The oracle: the project's own finished call rows, read from the audit log.
        const rows = (
          await w.store.activity.audit({ project: c.project, kinds: ['call'], since: Date.parse(a.since) })
        ).filter((x) => x.outcome !== 'started');
        expect(a.series.reduce((n, b) => n + b.calls, 0)).toBe(rows.length);
        expect(a.calls).toBe(rows.length);
        expect(a.errors).toBe(rows.filter((x) => x.outcome !== 'ok').length);
        // Calls the caller typed to keys it cannot see count, but name no server or tool.
        const seen = rows.filter((x) => own.includes(x.server ?? '') && x.outcome !== 'unknown_tool');
        expect(a.servers.reduce((n, s) => n + s.calls, 0)).toBeGreaterThanOrEqual(seen.length);
        expect(a.servers.map((s) => s.server).filter((s) => !own.includes(s))).toEqual([]);
        expect(a.topTools.every((t) => own.includes(t.key.slice(0, t.key.indexOf('/'))))).toBe(true);
      }
      const other = c.project === 'alpha' ? 'beta' : 'alpha';
      const tool = encodeURIComponent(OWN_CALLS[c.project][0]);
      const routes = [
        `/audit?tool=${tool}&limit=1000`,
        `/audit/export?tool=${tool}`,
        '/tokens',
        '/approvals',
      ];
      if (c.scope !== 'admin') {
        for (const path of routes) expect((await get(token, path)).status, path).toBe(403);
        const made = await get(token, '/tokens', {
          method: 'POST',
          body: JSON.stringify({ scopes: ['search'] }),
        });
        expect(made.status).toBe(403);
      } else {
        const audit = await get(token, routes[0]!);
        const exported = await get(token, routes[1]!);
        const listed = await get(token, routes[2]!);
        shown.push(audit.text, exported.text, listed.text);
        const rows = (JSON.parse(audit.text) as { rows: { project: string }[] }).rows;
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((r) => r.project === c.project)).toBe(true);
        const lines = exported.text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { project: string });
        expect(lines.length).toBe(rows.length);
        expect(lines.every((r) => r.project === c.project)).toBe(true);
        const tokens = (JSON.parse(listed.text) as { tokens: { project: string }[] }).tokens;
        expect(tokens.length).toBeGreaterThan(0);
        expect(tokens.every((t) => t.project === c.project)).toBe(true);
        // Quarantined tools: its own is listed, the other project's is neither listed nor released.
        const approvals = await get(token, routes[3]!);
        shown.push(approvals.text);
        const quarantined = (JSON.parse(approvals.text) as { quarantined: { key: string }[] }).quarantined;
        expect(quarantined.map((q) => q.key)).toEqual([held[c.project]]);
        const release = await get(token, `/approvals/tools/${held[other]!}/approve`, { method: 'POST' });
        // Its error quotes the key the caller typed, and names no held tool of the other project.
        expect(JSON.parse(release.text)).toEqual({
          error: {
            code: 'bad_input',
            message: `tool "${held[other]!}" is not quarantined; quarantined: "${held[c.project]!}"`,
          },
        });
        expect(await w.store.trust.getQuarantine(held[other]!)).toBeDefined();
        expect((await get(token, `/audit?project=${other}`)).status).toBe(403);
        expect((await get(token, `/audit/export?project=${other}`)).status).toBe(403);
        // Another project's token answers as an unknown id and keeps working.
        const victim = w.tokens.get(`${other}/search`)!;
        const refused = await get(token, `/tokens/${victim.ctx.tokenId!}/revoke`, { method: 'POST' });
        expect(JSON.parse(refused.text)).toEqual({
          error: { code: 'bad_input', message: `unknown token id "${victim.ctx.tokenId!}"` },
        });
        const projects = new Set<string>(w.projects);
        await expect(
          resolveBearer(w.store, `Bearer ${victim.token}`, { now: Date.now(), projects }),
        ).resolves.toMatchObject({ projectId: other });
        // A body naming another project still makes a token of the caller's own.
        const made = await get(token, '/tokens', {
          method: 'POST',
          body: JSON.stringify({ scopes: ['search'], project: other, name: 'matrix' }),
        });
        expect(made.status).toBe(201);
        expect(JSON.parse(made.text)).toMatchObject({ project: c.project, scopes: ['search'] });
      }
      const text = shown.join('\n');
      const leaks = forbidden(c.project, otherIds).filter((n) => text.includes(n));
      expect(leaks).toEqual([]);
    });
  });
}
