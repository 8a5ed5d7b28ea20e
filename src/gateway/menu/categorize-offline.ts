import {
  categorizeServer,
  type CategorizeOptions,
  type CategorizeTool,
  type CategoryId,
} from '../../catalog/index.js';
import { CarteError } from '../../errors.js';
import { checkServerAndName } from './rank.js';

/** One line of `carte categorize`: a tool's key, category and tags. */
export interface CategorizedTool {
  key: string;
  category: CategoryId;
  tags: string[];
  /** The blended scores, only under `options.scores` (benches read them; the CLI does not ask). */
  scores?: Record<CategoryId, number>;
}

/** The categories of a catalog given as data. */
export interface OfflineCategories {
  /** In catalog order, duplicates dropped. */
  tools: CategorizedTool[];
  servers: number;
  /** Duplicate ids dropped (the first wins). */
  duplicates: number;
}

/** A catalog entry as `carte rank` reads it, plus the optional `title` and `server_description`. */
interface Entry {
  server: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  server_description?: string;
}

/**
 * Categorises and tags tools given as catalog data (`[{server, name, description?,
 * inputSchema?}]`, the format `carte rank` reads), one server at a time, as a sync would.
 */
export function categorizeCatalog(
  raw: readonly unknown[],
  options: Partial<CategorizeOptions> = {},
): OfflineCategories {
  const servers = new Map<string, { description?: string; tools: CategorizeTool[] }>();
  const order: string[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  raw.forEach((value, i) => {
    const t = checkEntry(value, i);
    const key = `${t.server}/${t.name}`;
    if (seen.has(key)) {
      duplicates++;
      return;
    }
    seen.add(key);
    order.push(key);
    let server = servers.get(t.server);
    if (!server) servers.set(t.server, (server = { tools: [] }));
    if (server.description === undefined && t.server_description) server.description = t.server_description;
    const props = (t.inputSchema as { properties?: unknown } | undefined | null)?.properties;
    server.tools.push({
      key,
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      ...(t.description ? { description: t.description } : {}),
      paramNames: props && typeof props === 'object' ? Object.keys(props) : [],
    });
  });
  const byKey = new Map<string, CategorizedTool>();
  for (const [id, server] of servers) {
    const info = { id, ...(server.description ? { description: server.description } : {}) };
    for (const [key, c] of categorizeServer(info, server.tools, options)) {
      byKey.set(key, { key, category: c.category, tags: c.tags, ...(c.scores ? { scores: c.scores } : {}) });
    }
  }
  return { tools: order.map((key) => byKey.get(key)!), servers: servers.size, duplicates };
}

function checkEntry(raw: unknown, i: number): Entry {
  const t = checkServerAndName<Entry>(raw, i);
  for (const field of ['description', 'title', 'server_description'] as const) {
    const v = t[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new CarteError(
        'bad_input',
        `catalog entry ${i} ("${t.server}/${t.name}") has a non-string "${field}"`,
      );
    }
  }
  return t;
}
