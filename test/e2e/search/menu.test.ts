import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer } from '../../../src/mcp/index.js';
import { countTokens, LOCAL_CALLER as ME, type BrowseResult } from '../../../src/gateway/index.js';
import { compileRules } from '../../../src/policy/index.js';
import { fixture, harness, referenceServers, tempDir, type Harness } from '../helpers.js';

// Slow: the menu (issue 14) over real reference servers and a 120-tool fixture, with rules that
// hide, pin, tag and file tools, through the gateway and through the MCP face.
const RULES = compileRules([
  { match: '*delete*', enabled: false },
  { match: 'everything/echo', pin: true, useCases: ['parrot my words back'] },
  { match: 'filesystem/*', tags: ['local'], category: 'files' },
  { match: 'big/*', category: 'data' },
]);

describe('the menu: tiers, rules, usage and budgets', () => {
  let h: Harness;
  let client: Client;
  const dir = tempDir().dir;
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    return { r, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };

  beforeAll(async () => {
    h = await harness(
      [
        ...referenceServers(dir),
        fixture('big', 'paginated.mjs', { env: { TOOL_COUNT: '120', PAGE_SIZE: '50' } }),
      ],
      dir,
      { rules: RULES },
    );
    await h.gateway.sync(ME);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h.gateway).connect(serverSide);
    client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
  }, 120_000);
  afterAll(async () => {
    await client.close();
    await h.close();
  });

  it('stores a category for every tool at discovery', async () => {
    const stored = await h.store.tools.listCategories();
    expect(stored.size).toBe((await h.store.tools.listKeys()).length);
  });

  it('hidden tools are absent from search, browse, describe, call and suggestions', async () => {
    const hidden = (await h.store.tools.listKeys()).filter((k) => k.includes('delete'));
    expect(hidden.length).toBeGreaterThan(0);
    const key = hidden[0]!;
    const search = await h.gateway.searchToolsAsync(ME, 'delete remove entities', { limit: 50 });
    expect(search.map((r) => r.key).filter((k) => k.includes('delete'))).toEqual([]);
    const menu = (await h.gateway.browseTools(ME, {})) as Extract<BrowseResult, { kind: 'menu' }>;
    const listed = menu.categories.reduce((n, c) => n + c.tools, 0);
    expect(listed).toBe((await h.store.tools.listKeys()).length - hidden.length);
    const page = (await h.gateway.browseTools(ME, { server: 'memory' })) as Extract<
      BrowseResult,
      { kind: 'tools' }
    >;
    expect(page.tools.map((t) => t.key).filter((k) => k.includes('delete'))).toEqual([]);
    // Exactly like a key that never existed, and no hidden key is ever suggested.
    const asUnknown = await call('describe_tool', { key });
    expect(asUnknown.r.isError).toBe(true);
    expect(asUnknown.text).toMatch(new RegExp(`^unknown tool "${key}"`));
    const near = await call('describe_tool', { key: key.replace(/.$/, '') });
    for (const a of [asUnknown, near]) {
      const details = (a.r._meta as { 'carte/error': { details?: { suggestions?: string[] } } })[
        'carte/error'
      ];
      expect(details.details?.suggestions ?? []).not.toContain(key);
      for (const k of hidden) expect(a.text.replace(`"${key}"`, '')).not.toContain(k);
    }
    const called = await call('call_tool', { key, arguments: {} });
    expect(called.r.isError).toBe(true);
    expect(called.text).toMatch(/^unknown tool/);
  });

  it('T0 starts with pinned tools, then the most used', async () => {
    for (let i = 0; i < 3; i++) await h.gateway.callTool(ME, 'everything/get-sum', { a: 1, b: i });
    h.gateway.onCatalogChanged(() => undefined);
    // The usage read is cached for 30 s; a catalog change refreshes it.
    await h.gateway.reload(
      ME,
      h.gateway.listServers(ME).map((s) => h.gateway.server(s.id)),
    );
    const menu = (await h.gateway.browseTools(ME, {})) as Extract<BrowseResult, { kind: 'menu' }>;
    expect(menu.hot[0]).toMatchObject({ key: 'everything/echo', pinned: true });
    expect(menu.hot[1]?.key).toBe('everything/get-sum');
    for (const c of menu.categories) expect(c.examples.length).toBeLessThanOrEqual(3);
    for (const c of menu.categories) expect(c.servers).toBeLessThanOrEqual(c.tools);
    for (const c of menu.categories) {
      const page = (await h.gateway.browseTools(ME, { category: c.id })) as Extract<
        BrowseResult,
        { kind: 'tools' }
      >;
      expect(page.total).toBe(c.tools);
      expect(page.tools.map((t) => t.key)).toEqual(
        expect.arrayContaining(c.examples.filter((k) => page.tools.some((t) => t.key === k))),
      );
      const hotHere = menu.hot.map((t) => t.key).filter((k) => c.examples.includes(k));
      expect(c.examples.slice(0, hotHere.length)).toEqual(hotHere);
    }
  });

  it('a reloaded config changes the hot list size', async () => {
    const servers = () => h.gateway.listServers(ME).map((s) => h.gateway.server(s.id));
    const hot = async () =>
      ((await h.gateway.browseTools(ME, {})) as Extract<BrowseResult, { kind: 'menu' }>).hot;
    expect((await hot()).length).toBeGreaterThan(1);
    await h.gateway.reload(ME, servers(), { rules: RULES, hotList: { size: 1 } });
    expect((await hot()).map((t) => t.key)).toEqual(['everything/echo']);
    await h.gateway.reload(ME, servers(), { rules: RULES, hotList: { size: 12 } });
    expect((await hot()).length).toBeGreaterThan(1);
  });

  it("a rule's use cases reach search and the filed detail, and a reload that changes them too", async () => {
    // "parrot" and "quokka" are in no tool's text: only the rules' use cases say them.
    const first = async (q: string) => (await h.gateway.searchToolsAsync(ME, q, { limit: 5 }))[0]?.key;
    expect(await first('parrot my words')).toBe('everything/echo');
    expect((await h.gateway.describeToolFiled(ME, 'everything/echo')).useCases).toEqual([
      'parrot my words back',
    ]);
    expect(await h.gateway.describeToolFiled(ME, 'everything/get-sum')).not.toHaveProperty('useCases');
    const servers = h.gateway.listServers(ME).map((s) => h.gateway.server(s.id));
    const moved = compileRules([
      ...RULES.rules.map((r) => r.rule),
      { match: 'get-sum', useCases: ['quokka'] },
    ]);
    await h.gateway.reload(ME, servers, { rules: moved });
    expect(await first('quokka')).toBe('everything/get-sum');
    await h.gateway.reload(ME, servers, { rules: RULES });
    expect((await h.gateway.searchToolsAsync(ME, 'quokka')).map((r) => r.key)).not.toContain(
      'everything/get-sum',
    );
  });

  it('records every call, also an unknown key', async () => {
    await h.gateway.callTool(ME, 'nowhere/nothing', {}).catch(() => undefined);
    const usage = await h.store.activity.usageByTool();
    expect(usage.find((u) => u.key === 'nowhere/nothing')).toMatchObject({ calls: 1, errors: 1 });
    expect(usage.find((u) => u.key === 'everything/get-sum')?.calls).toBe(3);
  });

  it('T2 pages a category with a cursor; tag and category filters reach search', async () => {
    const first = (await h.gateway.browseTools(ME, { category: 'data' })) as Extract<
      BrowseResult,
      { kind: 'tools' }
    >;
    expect(first.total).toBeGreaterThanOrEqual(120);
    expect(first.tools).toHaveLength(50);
    const keys = [...first.tools.map((t) => t.key)];
    let cursor = first.nextCursor;
    while (cursor) {
      const next = (await h.gateway.browseTools(ME, { category: 'data', cursor })) as Extract<
        BrowseResult,
        { kind: 'tools' }
      >;
      keys.push(...next.tools.map((t) => t.key));
      cursor = next.nextCursor;
    }
    expect(new Set(keys).size).toBe(first.total);
    const local = h.gateway.searchTools(ME, 'read a file tag:local', { syntax: true, limit: 50 });
    expect(local.length).toBeGreaterThan(0);
    expect(local.every((r) => r.server === 'filesystem')).toBe(true);
  });

  it('a cursor from before a catalog change is refused, one for another scope is bad input', async () => {
    const first = (await h.gateway.browseTools(ME, { category: 'data' })) as Extract<
      BrowseResult,
      { kind: 'tools' }
    >;
    await expect(h.gateway.browseTools(ME, { category: 'files', cursor: first.nextCursor! })).rejects.toThrow(
      /is not a browse cursor for category "files"/,
    );
    await h.gateway.reload(
      ME,
      h.gateway.listServers(ME).map((s) => h.gateway.server(s.id)),
      {
        rules: compileRules([
          ...RULES.rules.map((r) => r.rule),
          { match: 'big/page_tool_1', enabled: false },
        ]),
      },
    );
    await expect(h.gateway.browseTools(ME, { category: 'data', cursor: first.nextCursor! })).rejects.toThrow(
      /cursor is stale: the catalog changed/,
    );
    await h.gateway.reload(
      ME,
      h.gateway.listServers(ME).map((s) => h.gateway.server(s.id)),
      { rules: RULES },
    );
  });

  it('unknown category: a clear error listing the ten', async () => {
    await expect(h.gateway.browseTools(ME, { category: 'cooking' })).rejects.toThrow(
      'unknown category "cooking"; the categories are code, files, web, documents, data, infra, ai, security, communication, utilities',
    );
  });

  it.each([50, 64, 100, 150, 250, 400, 700, 1000, 2000, 5000, 20_000])(
    'every answer fits maxTokens %i',
    async (maxTokens) => {
      const answers = [
        await call('browse_tools', { maxTokens }),
        await call('browse_tools', { category: 'data', maxTokens }),
        await call('browse_tools', { server: 'everything', maxTokens }),
        await call('search_tools', { query: 'read files and list directories', limit: 50, maxTokens }),
      ];
      for (const a of answers) {
        expect(a.r.isError, a.text).not.toBe(true);
        expect(await countTokens(a.text)).toBeLessThanOrEqual(maxTokens);
      }
      const d = await call('describe_tool', { key: 'filesystem/edit_file', maxTokens });
      if (d.r.isError) expect(d.text).toMatch(/too small for tool/);
      else expect(await countTokens(d.text)).toBeLessThanOrEqual(maxTokens);
    },
  );

  it('a budget that cuts a page says how to get the rest, with a cursor that continues it', async () => {
    const cut = (await h.gateway.browseTools(ME, { category: 'data', maxTokens: 300 })) as Extract<
      BrowseResult,
      { kind: 'tools' }
    >;
    expect(cut.omitted?.count).toBeGreaterThan(0);
    const cursor = /cursor "([^"]+)"/.exec(cut.omitted!.hint)![1]!;
    const rest = (await h.gateway.browseTools(ME, { category: 'data', cursor })) as Extract<
      BrowseResult,
      { kind: 'tools' }
    >;
    expect(rest.offset).toBe(cut.tools.length);
  });
});
