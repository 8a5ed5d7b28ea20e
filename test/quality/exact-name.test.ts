import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, type SearchDoc } from '../../src/search/index.js';

// The exact-name guarantee over every tool of the big bench catalog (../shared/bench, 6,975 real
// tools): a tool's key, and its name when no other tool has it, always come back first; a name
// several servers share puts the named server's tool first for "server name". CI has the data
// beside the clone (or CARTE_BENCH_DATA names the directory); a clone without it (a bare
// fresh-clone check in a temp dir) skips this file and says so on stderr.
const BENCH = process.env.CARTE_BENCH_DATA ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'bench');
const FILES = ['catalog-livemcpbench.json', 'catalog-smithery-toolgym-distractors.json'];
const present = FILES.every((f) => existsSync(join(BENCH, f)));
if (!present)
  process.stderr.write(`exact-name test skipped: no bench data at ${BENCH} (${FILES.join(', ')})\n`);

interface BenchTool {
  server: string;
  name: string;
  description?: string;
  inputSchema?: { properties?: Record<string, unknown> };
}

function loadDocs(): SearchDoc[] {
  const tools = FILES.flatMap((f) => JSON.parse(readFileSync(join(BENCH, f), 'utf8')) as BenchTool[]);
  return tools.map((t) => ({
    key: `${t.server}/${t.name}`,
    server: t.server,
    name: t.name,
    description: t.description ?? '',
    paramNames: Object.keys(t.inputSchema?.properties ?? {}),
  }));
}

describe.skipIf(!present)(`exact names over the big catalog (${BENCH})`, () => {
  const docs = present ? loadDocs() : [];
  const index = buildSearchIndex(docs);
  const byName = new Map<string, SearchDoc[]>();
  for (const d of docs) byName.set(d.name.toLowerCase(), [...(byName.get(d.name.toLowerCase()) ?? []), d]);

  it('has the whole catalog, with unique keys', () => {
    expect(docs.length).toBeGreaterThan(6900);
    expect(new Set(docs.map((d) => d.key)).size).toBe(docs.length);
  });

  it('ranks every tool first for its key', () => {
    const wrong = docs.filter((d) => index.search(d.key, { limit: 1 })[0]?.key !== d.key).map((d) => d.key);
    expect(wrong).toEqual([]);
  });

  it('ranks every tool first for its name, or among its namesakes when names collide', () => {
    const wrong: string[] = [];
    for (const [name, same] of byName) {
      const hits = index.search(same[0]!.name, { limit: same.length }).map((h) => h.key);
      const expected = new Set(same.map((d) => d.key));
      if (hits.length !== same.length || !hits.every((k) => expected.has(k))) wrong.push(name);
    }
    expect(wrong).toEqual([]);
  });

  it('puts the named server\'s tool first for "server name" when several servers share the name', () => {
    const shared = [...byName.values()].filter((same) => same.length > 1);
    expect(shared.length).toBeGreaterThan(50);
    const wrong = shared
      .flat()
      .filter((d) => index.search(`${d.server} ${d.name}`, { limit: 1 })[0]?.key !== d.key)
      .map((d) => d.key);
    expect(wrong).toEqual([]);
  });
});
