import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';
import {
  createToken,
  localCaller,
  resolveBearer,
  revokeToken,
  type CallerContext,
  type Gateway,
} from '../../../src/gateway/index.js';
import { FIXTURES, ROOT, startHttpFixture, tempDir, type Harness } from '../helpers.js';
import {
  connectFace,
  mainGateway,
  matrixServers,
  PLANTED,
  PROJECT_SERVERS,
  referenceGateway,
  SERVER,
  syncAll,
  type ProjectId,
} from './trust-matrix-setup.js';
import { answerOf, buildOps, type Catalog, type Op } from './trust-matrix-ops.js';
import { plainCallTool } from '../../../src/mcp/index.js';
import { describeRestMatrix } from './trust-matrix-rest.js';
import { describeEventsMatrix } from './trust-matrix-events.js';
import { describeListenMatrix } from './trust-matrix-listen.js';

// Slow: the trust matrix of issue 15. Every token (each project x each scope, resolved from a
// real bearer header) x every request an agent can send through the MCP face (search, browse at
// every tier, describe, call, resources, prompts, completions, run_code's calls and searches; every
// key of the whole catalog and near misses),
// each sent plain and with a spoofed `_meta`, twice (so one project's probing could show in the
// other's second round). Each answer must equal, byte for byte, the answer of a gateway that only
// ever had the caller's project; and no answer may carry an invisible key, server id or tool name,
// a command line, a path, an env or header value, or a token.
const PROJECTS: ProjectId[] = ['alpha', 'beta'];
const SCOPES = ['search', 'call', 'admin'] as const;
const CALLERS = PROJECTS.flatMap((p) => SCOPES.map((s) => ({ project: p, scope: s, label: `${p}/${s}` })));
const children: ChildProcess[] = [];
const tmp = tempDir('carte-matrix-');

let main: Harness;
const refs = new Map<ProjectId, Harness>();
let catalog: Catalog;
let ops: Op[];
const tokens = new Map<string, { token: string; ctx: CallerContext }>();
/** Config values no agent may see: command lines, paths, env, headers. */
let configNeedles: string[];
let url = '';

beforeAll(async () => {
  url = await startHttpFixture(children);
  const servers = matrixServers(tmp.dir, url);
  main = await mainGateway(servers, tmp.dir);
  await syncAll(main.gateway);
  for (const p of PROJECTS) {
    const ref = await referenceGateway(servers, p, tempDir('carte-matrix-ref-').dir);
    await ref.gateway.sync(localCaller('default'));
    refs.set(p, ref);
  }
  const listed = async (
    fn: (g: Gateway, c: CallerContext) => Promise<Record<string, unknown>[]>,
    f: string,
  ) =>
    (await Promise.all(PROJECTS.map((p) => fn(main.gateway, localCaller(p)))))
      .flat()
      .map((i) => String(i[f]));
  catalog = {
    keys: await main.store.tools.listKeys(),
    servers: Object.values(SERVER),
    // A few resources per server: reading all 100 of server-everything adds nothing.
    resources: (await listed((g, c) => g.passthrough.listResources(c), 'uri')).filter((_, i) => i % 40 < 2),
    prompts: await listed((g, c) => g.passthrough.listPrompts(c), 'name'),
    templates: await listed((g, c) => g.passthrough.listResourceTemplates(c), 'uriTemplate'),
  };
  ops = buildOps(catalog);
  const projects = new Set(PROJECTS);
  for (const c of CALLERS) {
    const made = await createToken(
      main.store,
      { project: c.project, scopes: [c.scope], projects },
      Date.now(),
    );
    const ctx = await resolveBearer(main.store, `Bearer ${made.token}`, { now: Date.now(), projects });
    tokens.set(c.label, { token: made.token, ctx });
  }
  configNeedles = [
    ...Object.values(PLANTED),
    process.execPath,
    tmp.dir,
    FIXTURES,
    ROOT,
    'node_modules',
    url,
    ...[...tokens.values()].map((t) => t.token),
  ];
}, 180_000);

afterAll(async () => {
  await main?.close();
  for (const r of refs.values()) await r.close();
  children.forEach((c) => c.kill('SIGKILL'));
  tmp.cleanup();
});

/** What the caller's project must never be shown: other servers' ids, and keys and names its view lacks. */
function forbidden(project: ProjectId, refText: string): string[] {
  const visible = new Set(refs.get(project)!.gateway.listedToolKeys(localCaller('default')));
  const own = new Set<string>(PROJECT_SERVERS[project]);
  const invisible = catalog.keys.filter((k) => !visible.has(k));
  const names = invisible.map((k) => k.slice(k.indexOf('/') + 1)).filter((n) => !refText.includes(n));
  return [...invisible, ...names, ...catalog.servers.filter((s) => !own.has(s))];
}

/** The keys a search_tools answer returned (none for an error). */
function searchKeys(raw: string): string[] {
  const r = JSON.parse(raw.startsWith('error') ? '{}' : raw) as {
    structuredContent?: { results?: { key: string }[] };
  };
  return (r.structuredContent?.results ?? []).map((x) => x.key).sort();
}

function visibleOnly(keys: string[], project: ProjectId, label: string, out: string[]): void {
  const visible = new Set(refs.get(project)!.gateway.listedToolKeys(localCaller('default')));
  const bad = keys.filter((k) => !visible.has(k));
  if (bad.length) out.push(`${label}: returned ${bad.join(', ')}`);
}

/**
 * A key the caller cannot see answers exactly as a key that never existed: `unknown tool "K"`,
 * perhaps with suggestions, every one of them a key the caller sees.
 */
function unknownShape(raw: string, key: string, project: ProjectId, out: string[]): void {
  const visible = new Set(refs.get(project)!.gateway.listedToolKeys(localCaller('default')));
  if (visible.has(key)) return;
  const r = JSON.parse(raw) as {
    content: { text: string }[];
    _meta: { 'carte/error': { code: string; details?: { suggestions?: string[] } } };
  };
  const error = r._meta['carte/error'];
  const near = error.details?.suggestions ?? [];
  const hint = near.length ? `; did you mean ${near.map((k) => `"${k}"`).join(' or ')}?` : '';
  if (
    error.code !== 'unknown_tool' ||
    r.content[0]!.text !== `unknown tool "${key}"${hint}` ||
    near.some((k) => !visible.has(k))
  )
    out.push(`describe ${key}: not answered as an unknown key: ${raw}`);
}

/** An answer with what the caller typed masked: an echo of one's own input is no leak. */
const masked = (text: string, op: Op) =>
  (op.inputs ?? []).filter(Boolean).reduce((t, input) => t.split(input).join('<INPUT>'), text);

describe.each([1, 2])('round %i', () => {
  it.each(CALLERS)(
    '$label: every request answers as in a gateway of its project alone',
    async (c) => {
      const { ctx } = tokens.get(c.label)!;
      const other = tokens.get(`${c.project === 'alpha' ? 'beta' : 'alpha'}/admin`)!;
      const spoof = {
        projectId: other.ctx.projectId,
        'carte/project': other.ctx.projectId,
        scopes: ['admin', '*'],
        tokenId: other.ctx.tokenId,
        authorization: `Bearer ${other.token}`,
      };
      const clients: Client[] = [
        await connectFace(main.gateway, ctx),
        await connectFace(refs.get(c.project)!.gateway, { projectId: 'default', scopes: [c.scope] }),
      ];
      const [face, ref] = clients as [Client, Client];
      const mismatches: string[] = [];
      let shown = '';
      let refShown = '';
      try {
        for (const op of ops) {
          const mine = await answerOf(op, () => op.send(face, undefined));
          const spoofed = await answerOf(op, () => op.send(face, spoof));
          const oracle = await answerOf(op, () => op.send(ref, undefined));
          if (op.label.startsWith('describe ') && op.inputs)
            unknownShape(mine.raw, op.inputs[0]!, c.project, mismatches);
          // Search is compared as key sets below (and in the per-project test): see searchKeys.
          if (op.unordered) visibleOnly(searchKeys(mine.raw), c.project, op.label, mismatches);
          else if (mine.norm !== oracle.norm)
            mismatches.push(`${op.label}\n  got  ${mine.norm}\n  want ${oracle.norm}`);
          if (spoofed.norm !== mine.norm)
            mismatches.push(`${op.label} (_meta)\n  got  ${spoofed.norm}\n  want ${mine.norm}`);
          shown += `${masked(mine.raw, op)}\n${masked(spoofed.raw, op)}\n`;
          // The HTTP and stdio faces answer plain call_tool requests without the SDK's server.
          if (op.plainArgs) {
            const args = op.plainArgs;
            const plain = await answerOf(op, () => plainCallTool(main.gateway, ctx, args));
            // The same answer; the SDK's client orders its keys its own way.
            if (!isDeepStrictEqual(JSON.parse(plain.norm), JSON.parse(mine.norm)))
              mismatches.push(`${op.label} (plain path)\n  got  ${plain.norm}\n  want ${mine.norm}`);
            shown += `${masked(plain.raw, op)}\n`;
          }
          refShown += `${masked(oracle.raw, op)}\n`;
        }
      } finally {
        await Promise.all(clients.map((x) => x.close()));
      }
      expect(mismatches.slice(0, 5).join('\n')).toBe('');
      const leaks = [...forbidden(c.project, refShown), ...configNeedles].filter((n) => shown.includes(n));
      const where = leaks.map((n) =>
        shown.slice(Math.max(0, shown.indexOf(n) - 300), shown.indexOf(n) + 100),
      );
      expect(leaks, where.join('\n----\n')).toEqual([]);
      // The matrix must have looked at something: visible tools were found and described.
      expect(shown).toContain('"kind":"menu"');
      expect(ops.length).toBeGreaterThan(200);
    },
    300_000,
  );
});

describe("search sees only the caller's catalog", () => {
  // Each project searches an index of its own tools (CatalogView.searchIndexFor): the typo
  // vocabulary, idf and synonyms never depend on another project's tools, so the tools returned
  // are those of a gateway holding only that project's servers.
  it.each(PROJECTS)(
    '%s: search_tools returns the same tools as its project alone',
    async (project) => {
      const ctx = tokens.get(`${project}/call`)!.ctx;
      const clients = [
        await connectFace(main.gateway, ctx),
        await connectFace(refs.get(project)!.gateway, { projectId: 'default', scopes: ['call'] }),
      ] as [Client, Client];
      const diffs: string[] = [];
      try {
        for (const op of ops.filter((o) => o.unordered)) {
          const [got, want] = await Promise.all(
            clients.map(async (cl) => searchKeys((await answerOf(op, () => op.send(cl, undefined))).raw)),
          );
          if (got!.join() !== want!.join())
            diffs.push(`${op.label}: got [${got!.join(', ')}], alone [${want!.join(', ')}]`);
        }
      } finally {
        await Promise.all(clients.map((x) => x.close()));
      }
      expect(diffs).toEqual([]);
    },
    300_000,
  );
});

describe('the facade answers each token as a gateway of its project alone', () => {
  it.each(CALLERS)('$label: listings, definitions, digest, hot list, lexical search', async (c) => {
    const { ctx } = tokens.get(c.label)!;
    const ref = refs.get(c.project)!.gateway;
    const alone = { projectId: 'default', scopes: [c.scope] };
    const both = async (fn: (g: Gateway, x: CallerContext) => unknown) => [
      JSON.stringify(await attempt(() => fn(main.gateway, ctx))),
      JSON.stringify(await attempt(() => fn(ref, alone))),
    ];
    const checks: [string, (g: Gateway, x: CallerContext) => unknown][] = [
      ['listedToolKeys', (g, x) => g.listedToolKeys(x)],
      ['hotToolKeys', (g, x) => g.hotToolKeys(x)],
      ['toolDefinitions', async (g, x) => (await g.toolDefinitions(x, catalog.keys)).map((d) => d.key)],
      ['catalogDigest', (g, x) => g.catalogDigest(x)],
    ];
    for (const [name, fn] of checks) {
      const [got, want] = await both(fn);
      expect(got, name).toBe(want);
    }
  });

  it('a caller whose project is no longer configured sees nothing, and is told only that', async () => {
    const gone: CallerContext = { projectId: 'gone', scopes: ['admin'] };
    const g = main.gateway;
    const answers = await Promise.all(
      [
        () => g.searchToolsAsync(gone, 'echo'),
        () => g.browseTools(gone, {}),
        () => g.describeTool(gone, `${SERVER.kitchen}/echo`),
        () => g.callTool(gone, `${SERVER.kitchen}/echo`, { message: 'x' }),
        () => g.passthrough.listResources(gone),
        () => g.passthrough.listPrompts(gone),
        () => g.catalogDigest(gone),
        () => g.listedToolKeys(gone),
      ].map(async (fn) => {
        try {
          return JSON.stringify(await fn());
        } catch (err) {
          return (err as Error).message;
        }
      }),
    );
    expect(new Set(answers)).toEqual(new Set(['project "gone" is not configured']));
  });
});

describe('tokens that resolve to no caller', () => {
  const projects = new Set<string>(PROJECTS);
  const now = Date.now();
  const make = async (project: string, extra: { expiresInMs?: number } = {}) =>
    (await createToken(main.store, { project, scopes: ['admin'], ...extra }, now)).token;

  const cases: [string, () => string | undefined | Promise<string>, string][] = [
    ['missing', () => undefined, 'missing Authorization header'],
    ['not bearer', async () => `Basic ${await make('alpha')}`, 'is not "Bearer <token>"'],
    ['malformed', async () => `Bearer ${(await make('alpha')).slice(0, -1)}`, 'malformed'],
    ['unknown', () => `Bearer carte_${'A'.repeat(43)}`, 'not known to this Carte'],
    ['expired', async () => `Bearer ${await make('alpha', { expiresInMs: 1 })}`, 'expired on'],
    ['revoked', async () => `Bearer ${await revoked()}`, 'was revoked on'],
    ['wrong project (removed)', async () => `Bearer ${await make('gamma')}`, 'belongs to project "gamma"'],
  ];
  it.each(cases)('%s: unauthorized, naming no token, server or tool', async (_, header, says) => {
    const h = await header();
    let message = '';
    await expect(
      (async () => {
        try {
          await resolveBearer(main.store, h, { now: now + 10, projects });
        } catch (err) {
          message = (err as Error).message;
          throw err;
        }
      })(),
    ).rejects.toThrow(expect.objectContaining({ code: 'unauthorized' }));
    expect(message).toContain(says);
    const secret = h?.split(' ')[1]?.slice('carte_'.length) ?? '';
    for (let i = 0; i + 8 <= secret.length; i++) expect(message).not.toContain(secret.slice(i, i + 8));
    for (const n of [...catalog.keys, ...catalog.servers, ...configNeedles]) expect(message).not.toContain(n);
  });

  async function revoked(): Promise<string> {
    const t = await createToken(main.store, { project: 'beta', scopes: ['call'] }, now);
    await revokeToken(main.store, t.id, now);
    return t.token;
  }
});

describe('operator views of an admin token', () => {
  // The admin-scope operator methods stay inside the token's project: servers (with their
  // targets), verdicts and discovery of another project's server answer as for an unknown id.
  it("an alpha admin token sees only alpha's servers", async () => {
    const ctx = tokens.get('alpha/admin')!.ctx;
    const ids = main.gateway.listServers(ctx).map((s) => s.id);
    expect(ids).toEqual([SERVER.kitchen]);
    const own = (k: string) => k.startsWith(`${SERVER.kitchen}/`);
    expect(main.gateway.toolVerdicts(ctx).filter((v) => !own(v.key))).toEqual([]);
    await expect(main.gateway.sync(ctx, { server: SERVER.notebook })).rejects.toThrow(
      `unknown server "${SERVER.notebook}"`,
    );
  });
});

describeEventsMatrix();
describeListenMatrix();

describeRestMatrix(() => ({
  gateway: main.gateway,
  store: main.store,
  projects: PROJECTS,
  callers: CALLERS,
  tokens,
  needles: () => configNeedles,
}));

async function attempt(fn: () => unknown): Promise<unknown> {
  try {
    return await fn();
  } catch (err) {
    return `error ${String((err as { code?: unknown }).code)}: ${(err as Error).message}`;
  }
}
