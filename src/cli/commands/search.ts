import type { CAC } from 'cac';
import { LOCAL_CALLER } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../app.js';
import { clip, formatTable, note, out, outJson } from '../output.js';
import { parseIntFlag } from '../flags.js';

interface Flags extends GlobalFlags {
  limit?: string;
  server?: string;
  json?: boolean;
}

/** `carte search <query...>`: rank the stored catalog; never starts an upstream. */
export function registerSearch(cli: CAC): void {
  cli
    .command('search <...query>', 'Search the tool catalog in plain words')
    .option('--limit <n>', 'How many results (1-50, default 8)')
    .option('--server <id>', 'Only this server')
    .option('--json', 'Print JSON')
    .action(async (query: string[], flags: Flags) => {
      const app = openApp(flags);
      try {
        const limit = parseIntFlag('--limit', flags.limit, 1, 50);
        const results = app.gateway.searchTools(LOCAL_CALLER, query.join(' '), {
          ...(limit ? { limit } : {}),
          ...(flags.server ? { server: flags.server } : {}),
        });
        if (flags.json) return outJson(results);
        if (app.gateway.listServers(LOCAL_CALLER).every((s) => s.toolCount === 0)) {
          note('the catalog is empty: run `carte sync` first');
        }
        if (results.length === 0) return out('no matching tools');
        out(formatTable(results.map((r) => [r.key, r.relevance.toFixed(2), clip(r.summary, 90)])));
      } finally {
        await app.close();
      }
    });
}
