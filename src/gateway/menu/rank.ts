import { CarteError } from '../../errors.js';
import { buildSearchIndex, type SearchDoc } from '../../search/index.js';

/** A tool as benchmark catalogs give it: `{server, name, description, inputSchema?}`. */
export interface CatalogFileTool {
  server: string;
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** Ranks queries against tools given as data, with exactly the gateway's search pipeline. */
export interface OfflineRanker {
  readonly size: number;
  /** Duplicate ids dropped while indexing (the first wins). */
  readonly duplicates: number;
  rank(query: string | string[], k: number): string[];
}

/** Builds the ranker; the id of a tool is `server/name` (server names may contain "/"). */
export function buildOfflineRanker(tools: readonly unknown[]): OfflineRanker {
  const seen = new Set<string>();
  const docs: SearchDoc[] = [];
  let duplicates = 0;
  tools.forEach((raw, i) => {
    const t = checkTool(raw, i);
    const key = `${t.server}/${t.name}`;
    if (seen.has(key)) {
      duplicates++;
      return;
    }
    seen.add(key);
    const props = (t.inputSchema as { properties?: unknown } | undefined)?.properties;
    docs.push({
      key,
      server: t.server,
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      paramNames: props && typeof props === 'object' ? Object.keys(props) : [],
    });
  });
  const index = buildSearchIndex(docs);
  return {
    size: docs.length,
    duplicates,
    rank: (query, k) => index.search(query, { limit: k }).map((h) => h.key),
  };
}

/** A catalog file entry's required string `server` and `name`, or an error naming entry `i`. */
export function checkServerAndName<T extends { server: string; name: string }>(
  raw: unknown,
  i: number,
): Partial<T> & { server: string; name: string } {
  const t = raw as Partial<T> | null;
  if (
    !t ||
    typeof t !== 'object' ||
    typeof t.server !== 'string' ||
    typeof t.name !== 'string' ||
    !t.server ||
    !t.name
  ) {
    throw new CarteError(
      'bad_input',
      `catalog entry ${i} needs string "server" and "name", got ${JSON.stringify(raw)?.slice(0, 80)}`,
    );
  }
  return t as Partial<T> & { server: string; name: string };
}

function checkTool(raw: unknown, i: number): CatalogFileTool {
  const t = checkServerAndName<CatalogFileTool>(raw, i);
  if (t.description !== undefined && t.description !== null && typeof t.description !== 'string') {
    throw new CarteError(
      'bad_input',
      `catalog entry ${i} ("${t.server}/${t.name}") has a non-string "description"`,
    );
  }
  return t;
}
