// The answers bench:tokens measures for each catalog: the exact text an agent receives, from a real
// Gateway (menu-catalog.ts), rendered as the MCP face sends it (src/mcp/server.ts: `tools/list`
// is the answer object, a meta-tool's result is `content[0].text = JSON.stringify(answer)`).
//   meta   `tools/list` of the four meta-tools, with this catalog's digest in two descriptions
//   T0+T1  `browse_tools {}`: the hot list, the categories, the servers
//   T2     `browse_tools {category}` of the biggest category, `{server}` of the biggest server:
//          the first page of each
//   T3     `describe_tool` of a typical tool (median input schema size) and of the largest
//   full   `tools/list` of every tool, what a gateway without meta-tools sends (the denominator)
// Each answer that takes `maxTokens` is measured again with it, to show the budget holds.
import { LOCAL_CALLER, type BrowseResult } from '../../src/gateway/index.js';
import { metaTools } from '../../src/mcp/index.js';
import { listingText, type ListedTool } from './listings.js';
import type { MenuCatalog } from './menu-catalog.js';

export type TierId = 'meta' | 'T0+T1' | 'T2 category' | 'T2 server' | 'T3 typical' | 'T3 largest' | 'full';

/** One answer as an agent receives it. */
export interface TierAnswer {
  /** The request, as an agent writes it. */
  request: string;
  /** The exact text sent. */
  text: string;
  /** The parts the answer is made of (top-level fields, or tools for a listing), each as JSON text. */
  parts: Record<string, string>;
}

export interface Tier {
  id: TierId;
  /** One line on what an agent sees. */
  what: string;
  /** Whether this answer is held to the target (every tier answer under 2 % of the full listing). */
  target: boolean;
  /** The answer; with `maxTokens`, undefined when the request does not take a budget. */
  answer: (c: MenuCatalog, picks: Picks, maxTokens?: number) => Promise<TierAnswer | undefined>;
}

/** What the T2 and T3 requests ask for in a catalog. */
export interface Picks {
  category: string;
  server: string;
  typicalTool: string;
  largestTool: string;
}

const fields = (value: object): Record<string, string> =>
  Object.fromEntries(Object.entries(value).map(([k, v]) => [k, JSON.stringify(v)]));

/** A `tools/list` answer; it takes no budget. Its parts are its tools. */
const listing = (tools: readonly { name?: unknown }[]): TierAnswer => ({
  request: 'tools/list',
  text: listingText(tools),
  parts: Object.fromEntries(tools.map((t) => [String(t.name), JSON.stringify(t)])),
});

async function browse(c: MenuCatalog, args: Record<string, string>, maxTokens?: number): Promise<TierAnswer> {
  const answer: BrowseResult = await c.gateway.browseTools(LOCAL_CALLER, {
    ...args,
    ...(maxTokens === undefined ? {} : { maxTokens }),
  });
  return {
    request: `browse_tools ${JSON.stringify(args)}`,
    text: JSON.stringify(answer),
    parts: fields(answer),
  };
}

async function describe(c: MenuCatalog, key: string, maxTokens?: number): Promise<TierAnswer> {
  const answer = await c.gateway.describeToolWithin(LOCAL_CALLER, key, maxTokens);
  return {
    request: `describe_tool ${JSON.stringify({ key })}`,
    text: JSON.stringify(answer),
    parts: fields(answer),
  };
}

/** The tiers, leanest first, then the full listing they are measured against. */
export const TIERS: readonly Tier[] = [
  {
    id: 'meta',
    what: 'the four meta-tools, with the catalog digest',
    target: true,
    answer: (c, _p, maxTokens) =>
      Promise.resolve(
        maxTokens === undefined ? listing(metaTools(c.gateway.catalogDigest(LOCAL_CALLER))) : undefined,
      ),
  },
  {
    id: 'T0+T1',
    what: 'hot list, categories with counts and examples, servers',
    target: true,
    answer: (c, _p, maxTokens) => browse(c, {}, maxTokens),
  },
  {
    id: 'T2 category',
    what: "the biggest category's first page",
    target: true,
    answer: (c, p, maxTokens) => browse(c, { category: p.category }, maxTokens),
  },
  {
    id: 'T2 server',
    what: "the biggest server's first page",
    target: true,
    answer: (c, p, maxTokens) => browse(c, { server: p.server }, maxTokens),
  },
  {
    id: 'T3 typical',
    what: 'one tool, median input schema size',
    target: true,
    answer: (c, p, maxTokens) => describe(c, p.typicalTool, maxTokens),
  },
  {
    id: 'T3 largest',
    what: 'one tool, the largest input schema',
    target: true,
    answer: (c, p, maxTokens) => describe(c, p.largestTool, maxTokens),
  },
  {
    id: 'full',
    what: 'every tool listed at once (no Carte)',
    target: false,
    answer: (c, _p, maxTokens) => Promise.resolve(maxTokens === undefined ? listing(c.tools) : undefined),
  },
];

const serverOf = (key: string) => key.slice(0, key.indexOf('/'));

/** The biggest category (T1's first), the server with the most tools, the median and largest schemas. */
export async function pickRequests(c: MenuCatalog): Promise<Picks> {
  const menu = await c.gateway.browseTools(LOCAL_CALLER, {});
  if (menu.kind !== 'menu' || !menu.categories[0]) throw new Error(`${c.label}: the menu has no categories`);
  const perServer = new Map<string, number>();
  for (const t of c.tools) perServer.set(serverOf(t.name), (perServer.get(serverOf(t.name)) ?? 0) + 1);
  const [server] = [...perServer].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
  const schemaSize = (t: ListedTool) => JSON.stringify(t.inputSchema).length;
  const bySchema = [...c.tools].sort((a, b) => schemaSize(a) - schemaSize(b) || (a.name < b.name ? -1 : 1));
  return {
    category: menu.categories[0].id,
    server,
    typicalTool: bySchema[Math.floor((bySchema.length - 1) / 2)]!.name,
    largestTool: bySchema.at(-1)!.name,
  };
}
