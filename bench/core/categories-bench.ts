// Stored categories over the big catalog: `npx tsx bench/core/categories-bench.ts [--runs N] [--data DIR]`.
// Fills a temp store with the ~7k tools of the shared bench catalog (uncategorised), then times
// backfillCategories (read each server's rows, categorizeServer, write every tool's category and
// tags, one transaction per server) and listCategories (what the menu reads per catalog change).
// The first back-fill in a process also searches each distinct word once (the word memo of
// category-scores.ts), as the first start after an upgrade does; later runs show the warm cost.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import {
  backfillCategories,
  buildToolRecord,
  categorizeServer,
  RECORD_DEFAULTS,
} from '../../src/catalog/index.js';
import { normaliseServerId } from '../../src/config/index.js';
import { openStore, type Store, type ToolRow } from '../../src/store/index.js';
import { benchDataDir, loadBigCatalog } from './bench-data.js';
import { numberFlag, tempDir } from './paths.js';
import { ms, summarize } from './stats.js';

/** Writes the catalog's rows without categories (as a store from before migration 6 holds them). */
async function fillStore(store: Store): Promise<{ descriptions: Map<string, string>; tools: number }> {
  const descriptions = new Map<string, string>();
  const rows = new Map<string, ToolRow[]>();
  for (const t of loadBigCatalog(benchDataDir())) {
    const id = normaliseServerId(t.server);
    const description = t.server_description?.trim();
    if (description && !descriptions.has(id)) descriptions.set(id, description);
    const listed = { name: t.name, description: t.description ?? undefined, inputSchema: t.inputSchema };
    const r = buildToolRecord(id, listed, 'bench', RECORD_DEFAULTS);
    if (r.ok && !rows.get(id)?.some((x) => x.key === r.row.key))
      rows.set(id, [...(rows.get(id) ?? []), r.row]);
  }
  let tools = 0;
  for (const [id, added] of rows) {
    await store.servers.reconcileConfig(id, 'bench');
    await store.transaction((tx) =>
      tx.tools.applyChanges({ added, changed: [], removed: [], unchanged: [] }, 'bench'),
    );
    tools += added.length;
  }
  return { descriptions, tools };
}

const paramNames = (schema: unknown): string[] =>
  Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});

/** The back-fill's three steps timed apart (warm word memo): read rows, categorise, write. */
async function phases(
  store: Store,
  descriptions: ReadonlyMap<string, string>,
): Promise<[number, number, number]> {
  const servers = await store.tools.serversMissingCategories();
  let t = performance.now();
  const rows: ToolRow[][] = [];
  for (const id of servers) rows.push(await store.tools.listByServer(id));
  const read = performance.now() - t;
  t = performance.now();
  const results = servers.map((id, i) => {
    const tools = rows[i]!.map((r) => ({
      key: r.key,
      name: r.name,
      title: r.title ?? undefined,
      description: r.description ?? undefined,
      paramNames: paramNames(r.inputSchema),
    }));
    return categorizeServer({ id, description: descriptions.get(id) }, tools);
  });
  const categorize = performance.now() - t;
  t = performance.now();
  for (const map of results) {
    await store.transaction((tx) =>
      tx.tools.setCategories([...map].map(([key, c]) => ({ key, category: c.category, tags: c.tags }))),
    );
  }
  return [read, categorize, performance.now() - t];
}

async function main(): Promise<void> {
  const runs = numberFlag('runs', 10);
  const { dir, cleanup } = tempDir();
  const path = join(dir, 'carte.db');
  const store = await openStore(path);
  const raw = new Database(path); // resets the categories between runs, as a pre-6 store has none
  const reset = () => raw.exec('UPDATE tools SET category = NULL, tags = NULL');
  try {
    const { descriptions, tools } = await fillStore(store);
    const backfill: number[] = [];
    let written = 0;
    for (let i = 0; i < runs; i++) {
      reset();
      const t = performance.now();
      written = await backfillCategories(store, descriptions);
      backfill.push(performance.now() - t);
    }
    const split: [number, number, number][] = [];
    for (let i = 0; i < runs; i++) {
      reset();
      split.push(await phases(store, descriptions));
    }
    const list: number[] = [];
    let size = 0;
    for (let i = 0; i < runs * 5; i++) {
      const t = performance.now();
      size = (await store.tools.listCategories()).size;
      list.push(performance.now() - t);
    }
    const row = (label: string, s: number[], first = true) => {
      const x = summarize(first ? s.slice(1) : s);
      return `| ${label} | ${first ? ms(s[0]!) : '-'} | ${ms(x.min)} | ${ms(x.p50)} | ${ms(x.p95)} |`;
    };
    const servers = (await store.servers.list()).length;
    console.log(
      `# Stored categories: ${tools} tools on ${servers} servers (${written} written per back-fill)\n`,
    );
    console.log(
      `Load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${runs} runs.\n`,
    );
    console.log('| ms | first run | later: min | p50 | p95 |');
    console.log('| --- | --- | --- | --- | --- |');
    console.log(row('backfillCategories (read, categorise, write)', backfill));
    console.log(
      row(
        '  read rows (listByServer)',
        split.map((s) => s[0]),
        false,
      ),
    );
    console.log(
      row(
        '  categorizeServer',
        split.map((s) => s[1]),
        false,
      ),
    );
    console.log(
      row(
        '  write (setCategories, a transaction per server)',
        split.map((s) => s[2]),
        false,
      ),
    );
    console.log(row(`listCategories (${size} tools)`, list));
  } finally {
    raw.close();
    await store.close();
    cleanup();
  }
}

await main();
