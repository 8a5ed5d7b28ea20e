import { CarteError } from '../../errors.js';
import type { UpstreamConnection } from '../../upstream/index.js';
import type { GatewayServer } from '../shared/types.js';

/**
 * Resources and prompts of the upstreams, passed through with server-prefixed names and URIs:
 * a prompt `summarize` of server `docs` is `docs/summarize`; a resource `file:///a.md` of
 * server `fs` is `carte://fs/file%3A%2F%2F%2Fa.md` (the original URI, percent-encoded).
 */
type Item = Record<string, unknown>;
type Connect = (s: GatewayServer) => Promise<UpstreamConnection>;

const PREFIX = 'carte://';
/** Pages followed per upstream list before giving up on a cursor that never ends. */
const MAX_PAGES = 100;

export function wrapResourceUri(server: string, uri: string): string {
  return `${PREFIX}${server}/${encodeURIComponent(uri)}`;
}

/**
 * A resource template's URI wrapped like a resource's, its `{...}` expressions kept as they are
 * so a client can still expand them: `file:///{path}` of `fs` is `carte://fs/file%3A%2F%2F%2F{path}`.
 */
export function wrapTemplateUri(server: string, template: string): string {
  const parts = template.split(/(\{[^}]*\})/);
  return `${PREFIX}${server}/${parts.map((p, i) => (i % 2 ? p : encodeURIComponent(p))).join('')}`;
}

/** Splits a wrapped URI into its server and the upstream's own URI. */
export function unwrapResourceUri(uri: string): { server: string; uri: string } {
  const m = /^carte:\/\/([a-z0-9][a-z0-9_-]*)\/(.+)$/.exec(uri);
  if (m) {
    try {
      return { server: m[1]!, uri: decodeURIComponent(m[2]!) };
    } catch {
      // fall through
    }
  }
  throw new CarteError(
    'bad_input',
    `resource URI "${uri.slice(0, 200)}" is not a Carte URI (carte://<server>/<encoded upstream URI>)`,
  );
}

/** Splits `server/name` (the name may itself contain "/"). */
export function splitPrefixed(name: string, what: string): { server: string; name: string } {
  const i = name.indexOf('/');
  if (i <= 0 || i === name.length - 1)
    throw new CarteError('bad_input', `${what} "${name}" is not of the form server/name`);
  return { server: name.slice(0, i), name: name.slice(i + 1) };
}

/** What is listed: resources, resource templates or prompts. */
export type ListKind = 'resources' | 'resourceTemplates' | 'prompts';

const LISTS = {
  resources: { capability: 'resources', method: 'resources/list' },
  resourceTemplates: { capability: 'resources', method: 'resources/templates/list' },
  prompts: { capability: 'prompts', method: 'prompts/list' },
} as const;

/** Lists one kind of item from every server that offers it; a failing server is skipped and logged. */
export async function listFromAll(
  servers: GatewayServer[],
  connect: Connect,
  kind: ListKind,
  onError: (server: string, err: unknown) => void,
): Promise<Item[]> {
  const lists = await Promise.all(
    servers.map(async (s) => {
      try {
        const conn = await connect(s);
        if (!conn.info.capabilities[LISTS[kind].capability]) return [];
        const items = await listAllPages(conn, LISTS[kind].method, kind, s.discoveryTimeoutMs);
        return items.map((item) => wrapItem(kind, s.id, item));
      } catch (err) {
        onError(s.id, err);
        return [];
      }
    }),
  );
  return lists.flat();
}

async function listAllPages(
  conn: UpstreamConnection,
  method: string,
  field: string,
  timeoutMs: number,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await conn.request(method, cursor ? { cursor } : {}, timeoutMs);
    const got = result[field];
    if (Array.isArray(got)) items.push(...(got as Item[]));
    cursor = result.nextCursor;
    if (typeof cursor !== 'string' || !cursor) break;
  }
  return items;
}

function wrapItem(kind: ListKind, server: string, item: Item): Item {
  if (kind === 'prompts') return { ...item, name: `${server}/${String(item.name)}` };
  if (kind === 'resources')
    return {
      ...item,
      uri: wrapResourceUri(server, String(item.uri)),
      name: `${server}/${String(item.name ?? item.uri)}`,
    };
  const template = String(item.uriTemplate);
  return {
    ...item,
    uriTemplate: wrapTemplateUri(server, template),
    name: `${server}/${typeof item.name === 'string' ? item.name : template}`,
  };
}

/** Maps the `uri` of each content item of a read result back to its wrapped form. */
export function wrapReadResult(server: string, result: Item): Item {
  const contents = Array.isArray(result.contents) ? (result.contents as Item[]) : [];
  return {
    ...result,
    contents: contents.map((c) =>
      typeof c.uri === 'string' ? { ...c, uri: wrapResourceUri(server, c.uri) } : c,
    ),
  };
}
