import type { CAC } from 'cac';
import { readFileSync, writeFileSync } from 'node:fs';
import { CarteError } from '../../errors.js';
import { buildOfflineRanker } from '../../gateway/index.js';
import { parseIntFlag } from '../shared/flags.js';
import { count, note, out } from '../shared/output.js';

interface Flags {
  catalog?: string | string[];
  queries?: string;
  k?: string;
  steps?: boolean;
  out?: string;
}

interface QueryEntry {
  id: unknown;
  query: string;
  steps?: string[];
}

/** Longest query text ranked; longer ones are cut (some benchmark tasks embed whole files). */
const MAX_QUERY = 1000;

/** `carte rank`: rank queries against catalog files with the gateway's search, no upstreams. */
export function registerRank(cli: CAC): void {
  cli
    .command('rank', 'Rank queries against catalog files (bench format) with the gateway search')
    .option('--catalog <file>', 'Catalog JSON: [{server, name, description, inputSchema?}] (repeatable)')
    .option('--queries <file>', 'Queries JSON: [{id, query, steps?}]')
    .option('--k <n>', 'Results per query (1-50, default 10)')
    .option('--steps', 'Rank each query as its steps (one merged ranking), as search_tools does')
    .option('--out <file>', 'Write JSON lines here instead of stdout')
    .action((flags: Flags) => {
      const catalogs = flags.catalog === undefined ? [] : ([] as string[]).concat(flags.catalog);
      if (!catalogs.length) throw new CarteError('bad_input', 'rank needs at least one --catalog FILE');
      if (!flags.queries) throw new CarteError('bad_input', 'rank needs --queries FILE');
      const k = parseIntFlag('--k', flags.k, 1, 50) ?? 10;
      const started = Date.now();
      const tools = catalogs.flatMap((file) => readArray(file, '--catalog'));
      const ranker = buildOfflineRanker(tools);
      note(
        `indexed ${count(ranker.size, 'tool')} from ${count(catalogs.length, 'file')} in ${Date.now() - started} ms${ranker.duplicates ? ` (${count(ranker.duplicates, 'duplicate id')} dropped)` : ''}`,
      );
      const queries = readArray(flags.queries, '--queries').map((q, i) => checkQuery(q, i));
      const t0 = Date.now();
      const lines = queries.map((q, i) => {
        if (i > 0 && i % 500 === 0) note(`ranked ${i}/${queries.length} queries`);
        const query = flags.steps && q.steps?.length ? q.steps.map(cut) : cut(q.query);
        return JSON.stringify({ id: q.id, ranking: ranker.rank(query, k) });
      });
      note(`ranked ${queries.length} queries in ${Date.now() - t0} ms`);
      const text = lines.length ? `${lines.join('\n')}\n` : '';
      if (flags.out) writeFileSync(flags.out, text);
      else out(text);
    });
}

const cut = (text: string): string => text.slice(0, MAX_QUERY);

function readArray(file: string, flag: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CarteError('bad_input', `${flag} ${file}: ${(err as Error).message}`);
  }
  if (!Array.isArray(value)) throw new CarteError('bad_input', `${flag} ${file}: expected a JSON array`);
  return value as unknown[];
}

function checkQuery(raw: unknown, i: number): QueryEntry {
  const q = raw as Partial<QueryEntry> | null;
  if (!q || typeof q !== 'object' || typeof q.query !== 'string') {
    throw new CarteError('bad_input', `query ${i} needs a string "query"`);
  }
  const steps = Array.isArray(q.steps)
    ? q.steps.filter((s): s is string => typeof s === 'string')
    : undefined;
  return { id: q.id ?? i, query: q.query, ...(steps ? { steps } : {}) };
}
