import type { CAC } from 'cac';
import { CarteError } from '../../errors.js';
import { LOCAL_CALLER } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { clip, formatTable, note, out, outJson } from '../shared/output.js';
import { parseIntFlag } from '../shared/flags.js';

interface Flags extends GlobalFlags {
  limit?: string;
  server?: string;
  minRelevance?: string;
  json?: boolean;
}

/** `carte search <query...>`: rank the stored catalog; never starts an upstream. */
export function registerSearch(cli: CAC): void {
  cli
    .command(
      'search <...query>',
      'Search the catalog: plain words, "phrases", server:ID, tag:X, category:X, -word, +word, a OR b',
    )
    .option('--limit <n>', 'How many results (1-50, default 8)')
    .option('--server <id>', 'Only this server')
    .option('--min-relevance <x>', 'Drop results below this relevance (0 to 1)')
    .option('--json', 'Print JSON')
    .action(async (query: string[], flags: Flags) => {
      const app = await openApp(flags);
      try {
        const limit = parseIntFlag('--limit', flags.limit, 1, 50);
        const min = parseRelevance(flags.minRelevance);
        // Hybrid: embed what the catalog lacks first (progress on stderr); lexical: returns at once.
        await app.gateway.prepareSearch(LOCAL_CALLER);
        const { results, meta } = await app.gateway.searchToolsWithMeta(LOCAL_CALLER, query.join(' '), {
          syntax: true,
          ...(limit ? { limit } : {}),
          ...(flags.server ? { server: flags.server } : {}),
          ...(min !== undefined ? { minRelevance: min } : {}),
        });
        if (flags.json) return outJson({ results, meta });
        const servers = app.gateway.listServers(LOCAL_CALLER);
        const never = servers.filter((s) => s.status === 'never').map((s) => s.id);
        if (servers.every((s) => s.toolCount === 0)) note('the catalog is empty: run `carte sync` first');
        else if (never.length > 0)
          note(
            `never discovered, so not searched: ${never.join(', ')}; run \`carte sync\` to add their tools`,
          );
        if (results.length === 0) return out('no matching tools');
        out(formatTable(results.map((r) => [r.key, r.relevance.toFixed(2), clip(r.summary, 90)])));
      } finally {
        await app.close();
      }
    });
}

function parseRelevance(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw new CarteError('bad_input', `--min-relevance must be a number from 0 to 1, not "${String(value)}"`);
  }
  return n;
}
