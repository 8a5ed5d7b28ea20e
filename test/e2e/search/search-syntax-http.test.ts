import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDiscovery, type ListedTool } from '../../../src/catalog/index.js';
import { createHttpApp, type HttpApp } from '../../../src/http/index.js';
import { harness, stdioServer, tempDir, type Harness } from '../helpers.js';

// Boolean queries through the REST search the web menu uses (issue 29, item 4): `+word`, `OR`,
// and a malformed query's 400 naming where it is. No upstream starts: the catalog is seeded.
const tool = (name: string, description: string): ListedTool => ({
  name,
  description,
  inputSchema: { type: 'object' },
});
const CATALOG: Record<string, ListedTool[]> = {
  disk: [
    tool('read_file', 'Read the contents of a file from disk.'),
    tool('list_directory', 'List the entries of a directory.'),
  ],
  web: [tool('fetch', 'Fetch a URL and return its text.')],
};

let h: Harness;
let app: HttpApp;
const dir = tempDir();
beforeAll(async () => {
  const servers = Object.keys(CATALOG).map((id) => stdioServer(id, ['never-started.js']));
  h = await harness(servers, dir.dir, {}, async (store) => {
    for (const [id, tools] of Object.entries(CATALOG)) await applyDiscovery(store, id, { tools });
  });
  app = createHttpApp({ gateway: h.gateway, store: h.store, anonymousProject: 'default' });
});
afterAll(async () => {
  await h.close();
  dir.cleanup();
});

const search = async (q: string) => {
  const res = await app.request(`/api/v1/search?${new URLSearchParams({ q }).toString()}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const keys = (body: Record<string, unknown>) => (body.results as { key: string }[]).map((r) => r.key).sort();

describe('REST search syntax', () => {
  it.each<[string, string[]]>([
    ['list +files', ['disk/read_file']],
    ['read OR fetch', ['disk/read_file', 'web/fetch']],
    ['"the entries" OR url', ['disk/list_directory', 'web/fetch']],
    ['file -read', []],
  ])('%j finds %j', async (q, expected) => {
    const r = await search(q);
    expect(r.status).toBe(200);
    expect(keys(r.body)).toEqual(expected);
  });

  it('a query of filters only lists what they select, by server then name (the web search box sends it)', async () => {
    const r = await search('server:disk');
    expect(r.status).toBe(200);
    expect((r.body.results as { key: string; relevance: number }[]).map((x) => [x.key, x.relevance])).toEqual(
      [
        ['disk/list_directory', 1],
        ['disk/read_file', 1],
      ],
    );
    expect(keys((await search('-disk')).body)).toEqual(['web/fetch']);
  });

  it.each<[string, string]>([
    ['read OR', 'query "read OR": "OR" at the end has nothing after it'],
    ['"read file', 'query "\\"read file": the quote at character 1 is never closed'],
    ['read + file', 'query "read + file": "+" at character 6 has no word after it'],
  ])('%j is a 400 naming where', async (q, message) => {
    expect(await search(q)).toEqual({ status: 400, body: { error: { code: 'bad_input', message } } });
  });
});
