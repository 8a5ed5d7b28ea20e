// The 50,000-tool synthetic catalog (issue 28: search p95 < 20 ms there). No public catalog is that
// large, so it is grown from the real ones: the big catalog and MetaTool's plugins as they are,
// then copies of every server under a new id ("<id>-mirror-2", ...) until 50,000 tools. A copy keeps
// each tool's name and schema (real catalogs repeat names: dozens of `read_file` and `search`),
// and re-mixes its description with a seeded generator: each word kept with probability 0.8, and
// 3-8 words of another tool's description appended. So the postings grow as a catalog of many
// look-alike servers would, with the real vocabulary and the real mix of languages, and the same
// catalog comes out on every run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchTool } from './bench-data.js';
import { loadBigCatalog } from './bench-data.js';
import { mulberry32 } from '../quality/categories-sample.js';

export const SYNTHETIC_TOOLS = 50_000;
const METATOOL_CATALOG = 'catalog-metatool.json';
const KEEP_WORD = 0.8;
const BORROWED_WORDS = [3, 8] as const;

/** `count` tools: the real ones first, then re-mixed copies of every server in turn. */
export function syntheticCatalog(dir: string, count: number = SYNTHETIC_TOOLS): BenchTool[] {
  const metatool = JSON.parse(readFileSync(join(dir, METATOOL_CATALOG), 'utf8')) as BenchTool[];
  const real = [...loadBigCatalog(dir), ...metatool];
  const words = real.map((t) => (t.description ?? '').split(/\s+/).filter(Boolean));
  const random = mulberry32(28); // seeded: the same catalog on every run and machine
  const out: BenchTool[] = real.slice(0, count);
  for (let copy = 2; out.length < count; copy++) {
    for (let i = 0; i < real.length && out.length < count; i++) {
      const tool = real[i]!;
      const kept = words[i]!.filter(() => random() < KEEP_WORD);
      const other = words[Math.floor(random() * words.length)]!;
      const [least, most] = BORROWED_WORDS;
      const borrowed = Math.min(other.length, least + Math.floor(random() * (most - least + 1)));
      const from = Math.floor(random() * Math.max(1, other.length - borrowed + 1));
      out.push({
        ...tool,
        server: `${tool.server}-mirror-${copy}`,
        description: [...kept, ...other.slice(from, from + borrowed)].join(' '),
      });
    }
  }
  return out;
}
