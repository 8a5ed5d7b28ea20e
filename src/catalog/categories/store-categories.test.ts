import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store, type StoredCategory } from '../../store/index.js';
import {
  applyDiscovery,
  backfillCategories,
  buildToolRecord,
  categorizeServer,
  categorizeStoredServer,
  RECORD_DEFAULTS,
  syncServer,
  type ListedTool,
} from '../index.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** A fresh store file in a temp dir, with the servers' config rows. */
async function open(...servers: string[]): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'carte-categories-'));
  dirs.push(dir);
  const store = await openStore(join(dir, 'carte.db'));
  stores.push(store);
  for (const id of servers) await store.servers.reconcileConfig(id, 'h');
  return store;
}

const listed = (name: string, description: string, params: string[] = []): ListedTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, {}])) },
});

const GITHUB = [
  listed('create_issue', 'Create a new issue in a GitHub repository', ['owner', 'repo', 'title']),
  listed('list_commits', 'List the commits of a branch', ['owner', 'repo', 'branch']),
  listed('get_status', 'Get the status'),
];

/** What categorizeServer says for a listing, computed apart from the store: the oracle. */
function expected(id: string, tools: ListedTool[], description?: string) {
  const text = tools.map((t) => {
    const name = t.name as string;
    const props = (t.inputSchema as { properties: Record<string, unknown> }).properties;
    return {
      key: `${id}/${name}`,
      name,
      description: t.description as string,
      paramNames: Object.keys(props),
    };
  });
  const map = categorizeServer({ id, description }, text);
  return new Map([...map].map(([key, c]) => [key, { category: c.category, tags: c.tags }]));
}

const SENTINEL: StoredCategory = { category: 'security', tags: ['sentinel'] };

describe('stored categories', () => {
  it('a discovery stores every tool’s category and tags, as categorizeServer computes them', async () => {
    const store = await open('github');
    await applyDiscovery(store, 'github', { tools: GITHUB });
    const stored = await store.tools.listCategories();
    expect(stored).toEqual(expected('github', GITHUB));
    expect(stored.get('github/create_issue')?.category).toBe('code');
    expect(await store.tools.serversMissingCategories()).toEqual([]);
  });

  it('an unchanged listing keeps the stored categories; a change recomputes the whole server', async () => {
    const store = await open('github');
    await applyDiscovery(store, 'github', { tools: GITHUB });
    await store.tools.setCategories([{ key: 'github/get_status', ...SENTINEL }]);
    expect((await applyDiscovery(store, 'github', { tools: GITHUB })).changed).toBe(0);
    expect((await store.tools.listCategories()).get('github/get_status')).toEqual(SENTINEL);

    const changed = [GITHUB[0]!, listed('list_commits', 'List the commits of a git branch'), GITHUB[2]!];
    expect((await applyDiscovery(store, 'github', { tools: changed })).changed).toBe(1);
    expect(await store.tools.listCategories()).toEqual(expected('github', changed));

    await store.tools.setCategories([{ key: 'github/get_status', ...SENTINEL }]);
    const removed = changed.slice(1);
    expect((await applyDiscovery(store, 'github', { tools: removed })).removed).toBe(1);
    expect(await store.tools.listCategories()).toEqual(expected('github', removed));
  });

  it('an unchanged listing categorises a server that has a tool without a category', async () => {
    const store = await open('github');
    const rows = GITHUB.map((t) => buildToolRecord('github', t, 'then', RECORD_DEFAULTS)).map((r) => {
      if (!r.ok) throw new Error('bad fixture');
      return r.row;
    });
    await store.tools.applyChanges({ added: rows, changed: [], removed: [], unchanged: [] }, 'then');
    expect(await store.tools.serversMissingCategories()).toEqual(['github']);
    const report = await applyDiscovery(store, 'github', { tools: GITHUB });
    expect([report.added, report.changed, report.removed]).toEqual([0, 0, 0]);
    expect(await store.tools.listCategories()).toEqual(expected('github', GITHUB));
  });

  it('the server description is evidence for its tools', async () => {
    const vague = [listed('run', 'Run it'), listed('status', 'Show the status')];
    const description = 'Send messages to Slack channels and read team conversations';
    const a = await open('helper');
    await applyDiscovery(a, 'helper', { tools: vague });
    const b = await open('helper');
    await applyDiscovery(b, 'helper', { tools: vague }, { serverDescription: description });
    expect(await b.tools.listCategories()).toEqual(expected('helper', vague, description));
    expect((await b.tools.listCategories()).get('helper/run')?.category).toBe('communication');
    expect((await a.tools.listCategories()).get('helper/run')?.category).not.toBe('communication');
  });

  it('syncServer passes the description on, and a failed discovery keeps the stored categories', async () => {
    const store = await open('helper');
    const vague = [listed('run', 'Run it')];
    const description = 'Send messages to Slack channels';
    await syncServer(store, 'helper', () => Promise.resolve({ tools: vague }), {
      serverDescription: description,
    });
    const before = await store.tools.listCategories();
    expect(before).toEqual(expected('helper', vague, description));
    const report = await syncServer(store, 'helper', () => Promise.reject(new Error('down')));
    expect(report.status).toBe('failed');
    expect(await store.tools.listCategories()).toEqual(before);
  });

  it('backfillCategories fills only servers missing some, with their descriptions, once', async () => {
    const store = await open('github', 'helper', 'done');
    const vague = [listed('run', 'Run it')];
    for (const [id, tools] of [
      ['github', GITHUB],
      ['helper', vague],
    ] as const) {
      const rows = tools.map((t) => buildToolRecord(id, t, 'then', RECORD_DEFAULTS));
      const added = rows.flatMap((r) => (r.ok ? [r.row] : []));
      await store.tools.applyChanges({ added, changed: [], removed: [], unchanged: [] }, 'then');
    }
    await applyDiscovery(store, 'done', { tools: [listed('read_file', 'Read a file')] });
    await store.tools.setCategories([{ key: 'done/read_file', ...SENTINEL }]);
    const descriptions = new Map([['helper', 'Send messages to Slack channels']]);

    expect(await backfillCategories(store, descriptions)).toBe(4);
    expect(await store.tools.listCategories()).toEqual(
      new Map([
        ...expected('github', GITHUB),
        ...expected('helper', vague, 'Send messages to Slack channels'),
        ['done/read_file', SENTINEL],
      ]),
    );
    expect(await backfillCategories(store, descriptions)).toBe(0);
  });

  it('categorizeStoredServer writes nothing for a server without tools', async () => {
    const store = await open('empty');
    expect(await categorizeStoredServer(store, { id: 'empty' })).toBe(0);
    expect((await store.tools.listCategories()).size).toBe(0);
  });
});
