import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer } from '../../../src/mcp/index.js';
import {
  compileRules,
  LOCAL_CALLER,
  projectsFromConfig,
  type CallerContext,
  type Gateway,
} from '../../../src/gateway/index.js';
import { harness, referenceServers, tempDir, type Harness } from '../helpers.js';

// Slow: projects and scopes (issue 15) over the real reference servers. A tool of another
// project's server, or one its rules hide, must answer exactly as in a gateway that never had it:
// the same gateway seen from project "alpha" is compared byte for byte with a second gateway
// that only has alpha's server and rules.
const ALPHA_RULES = [
  { match: '*sum*', enabled: false, tags: [] },
  { match: 'everything/echo', class: 'read' as const, tags: [] },
  { match: 'everything/get-env', class: 'destructive' as const, tags: [] },
];
const PROJECTS = projectsFromConfig({
  projects: {
    alpha: { servers: ['everything'], rules: ALPHA_RULES, deny: ['destructive'], confirm: [] },
    beta: {
      servers: ['memory', 'filesystem'],
      rules: [{ match: 'memory/create_entities', class: 'write', tags: [] }],
      deny: [],
      confirm: ['write'],
    },
  },
});
const caller = (projectId: string, ...scopes: string[]): CallerContext => ({ projectId, scopes });
const ALPHA = caller('alpha', 'call');

/**
 * What a gateway answers, as text, success or failure. Discovery times differ between the two
 * stores, and relevance is scored with the statistics of the shared index (docs/security.md says
 * so): both are masked; keys, order, counts, summaries and messages must match exactly.
 */
async function answer(fn: () => unknown): Promise<string> {
  try {
    return JSON.stringify(await fn())
      .replace(/"(first|last)SeenAt":"[^"]*"/g, '"$1SeenAt":"-"')
      .replace(/"relevance":[0-9.]+/g, '"relevance":0');
  } catch (err) {
    return `error ${(err as { code?: string }).code}: ${(err as Error).message}`;
  }
}

describe('projects see only their servers and rules', () => {
  let h: Harness;
  let alone: Harness;
  let keys: string[];
  const dir = tempDir().dir;
  const aloneDir = tempDir().dir;

  beforeAll(async () => {
    h = await harness(referenceServers(dir), dir, { projects: PROJECTS });
    await h.gateway.sync(LOCAL_CALLER);
    // The reference: a gateway that only ever had alpha's server, with alpha's rules as its own.
    const everything = referenceServers(aloneDir).filter((s) => s.id === 'everything');
    alone = await harness(everything, aloneDir, { rules: compileRules(ALPHA_RULES) });
    await alone.gateway.sync(LOCAL_CALLER);
    keys = await h.store.tools.listKeys();
  }, 120_000);
  afterAll(async () => {
    await h.close();
    await alone.close();
  });

  // Some answers say when they were made (get-resource-reference: "created at 6:54:17 AM"), and
  // the two calls may fall on either side of a second.
  const untimed = (text: unknown) => String(text).replace(/\b\d{1,2}:\d{2}:\d{2}(\s?[AP]M)?/g, '<time>');
  const both = async (fn: (g: Gateway, c: CallerContext) => unknown) => [
    await answer(() => fn(h.gateway, ALPHA)),
    await answer(() => fn(alone.gateway, caller('default', 'call'))),
  ];

  it('every key: describe and call answer as in a gateway without the other servers', async () => {
    expect(keys.some((k) => k.startsWith('memory/'))).toBe(true);
    for (const key of [...keys, 'memory/nope', 'everything/get-su']) {
      const [a, b] = await both((g, c) => g.describeTool(c, key));
      expect(a, key).toBe(b);
      if (key === 'everything/get-env') continue; // alpha denies destructive calls; the reference has no project
      const [x, y] = await both((g, c) => g.callTool(c, key, { nope: 1 }));
      expect(untimed(x), key).toBe(untimed(y));
    }
  });

  it('search, browse, counts, the digest, resources and prompts are the same', async () => {
    for (const q of ['create entities in a graph', 'read a file', 'add two numbers', 'echo']) {
      // The same tools; their order among near-ties may follow the shared index's statistics.
      const sorted = async (g: Gateway, c: CallerContext) =>
        (await g.searchToolsAsync(c, q, { limit: 20 })).sort((x, y) => (x.key < y.key ? -1 : 1));
      const [a, b] = await both(sorted);
      expect(a, q).toBe(b);
    }
    for (const req of [{}, { server: 'memory' }, { server: 'everything' }, { category: 'files' }]) {
      const [a, b] = await both((g, c) => g.browseTools(c, req));
      expect(a, JSON.stringify(req)).toBe(b);
    }
    const [d1, d2] = await both((g, c) => g.catalogDigest(c));
    expect(d1).toBe(d2);
    const [r1, r2] = await both((g, c) => g.passthrough.listResources(c));
    expect(r1).toBe(r2);
    const [p1, p2] = await both((g, c) => g.passthrough.listPrompts(c));
    expect(p1).toBe(p2);
    const [g1, g2] = await both((g, c) => g.passthrough.getPrompt(c, 'memory/anything', {}));
    expect(g1).toBe(g2);
  });

  it('a project that is not configured sees nothing', async () => {
    await expect(h.gateway.searchToolsAsync(caller('gone', 'call'), 'echo')).rejects.toThrow(
      'project "gone" is not configured',
    );
  });

  it('scopes: search cannot call, call cannot list servers', async () => {
    const searcher = caller('alpha', 'search');
    expect((await h.gateway.searchToolsAsync(searcher, 'echo')).length).toBeGreaterThan(0);
    await expect(h.gateway.callTool(searcher, 'everything/echo', { message: 'x' })).rejects.toThrow(
      'call_tool needs the call scope',
    );
    expect(() => h.gateway.listServers(ALPHA)).toThrow('needs the admin scope');
  });

  it('deny: a destructive tool is refused, a rule may class a tool as read', async () => {
    const ok = await h.gateway.callTool(ALPHA, 'everything/echo', { message: 'hi' });
    expect(JSON.stringify(ok)).toContain('hi');
    await expect(h.gateway.callTool(ALPHA, 'everything/get-env', {})).rejects.toThrow(
      '"everything/get-env" is a destructive tool and project "alpha" may not call destructive tools',
    );
  });

  it('confirm: asks when the client can, refuses when it cannot or the person says no', async () => {
    const beta = caller('beta', 'call');
    const args = { entities: [{ name: 'a', entityType: 't', observations: [] }] };
    await expect(h.gateway.callTool(beta, 'memory/create_entities', args)).rejects.toThrow(
      /needs a person to confirm each such call, and this client cannot ask/,
    );
    await expect(
      h.gateway.callTool(beta, 'memory/create_entities', args, { confirm: () => Promise.resolve(false) }),
    ).rejects.toThrow('the call of "memory/create_entities" was not confirmed');
    const asked: string[] = [];
    const r = await h.gateway.callTool(beta, 'memory/create_entities', args, {
      confirm: (m) => (asked.push(m), Promise.resolve(true)),
    });
    expect(r.isError).not.toBe(true);
    expect(asked).toEqual(['Allow a write call of memory/create_entities?']);
  });

  it("a client's _meta never changes the project", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h.gateway, ALPHA).connect(serverSide);
    const client = new Client({ name: 'spoof', version: '0' });
    await client.connect(clientSide);
    try {
      const r = await client.callTool({
        name: 'describe_tool',
        arguments: { key: 'memory/create_entities' },
        _meta: { projectId: 'beta', 'carte/project': 'beta', scopes: ['admin'] },
      });
      expect(r.isError).toBe(true);
      expect((r.content as Array<{ text: string }>)[0]!.text).toMatch(
        /^unknown tool "memory\/create_entities"/,
      );
    } finally {
      await client.close();
    }
  });
});
