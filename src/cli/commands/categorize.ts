import type { CAC } from 'cac';
import { readFileSync, writeFileSync } from 'node:fs';
import { CarteError } from '../../errors.js';
import { categorizeCatalog } from '../../gateway/index.js';
import { count, note } from '../shared/output.js';

interface Flags {
  catalog?: string | string[];
  out?: string;
}

/** `carte categorize`: the category and tags of every tool of catalog files, no upstreams. */
export function registerCategorize(cli: CAC): void {
  cli
    .command('categorize', 'Write the category and tags of every tool of catalog files (bench format)')
    .option('--catalog <file>', 'Catalog JSON: [{server, name, description, inputSchema?}] (repeatable)')
    .option('--out <file>', 'Write JSON lines {key, category, tags} here')
    .action((flags: Flags) => {
      const catalogs = flags.catalog === undefined ? [] : ([] as string[]).concat(flags.catalog);
      if (!catalogs.length) throw new CarteError('bad_input', 'categorize needs at least one --catalog FILE');
      if (!flags.out) throw new CarteError('bad_input', 'categorize needs --out FILE');
      const tools = catalogs.flatMap((file) => readArray(file));
      const started = Date.now();
      const result = categorizeCatalog(tools);
      note(
        `categorized ${count(result.tools.length, 'tool')} on ${count(result.servers, 'server')} from ${count(catalogs.length, 'file')} in ${Date.now() - started} ms${result.duplicates ? ` (${count(result.duplicates, 'duplicate id')} dropped)` : ''}`,
      );
      const lines = result.tools.map((t) =>
        JSON.stringify({ key: t.key, category: t.category, tags: t.tags }),
      );
      writeFileSync(flags.out, lines.length ? `${lines.join('\n')}\n` : '');
    });
}

function readArray(file: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CarteError('bad_input', `--catalog ${file}: ${(err as Error).message}`);
  }
  if (!Array.isArray(value)) throw new CarteError('bad_input', `--catalog ${file}: expected a JSON array`);
  return value as unknown[];
}
