import { didYouMean } from './did-you-mean.js';
import { describeValue, isRecord, listChoices, type Problems, type Segment } from './problems.js';
import { isServerId, normaliseServerId } from './server-ids.js';

/** A Claude / Cursor or VS Code document rewritten into Carte's shape, and how to map paths back. */
export interface Translated {
  doc: { servers: Record<string, unknown> };
  /** Carte id -> id as written in the file. */
  writtenIds: Map<string, string>;
  /** Rewrites `servers.<id>...` back to the file's own section and id. */
  remap: (path: Segment[]) => Segment[];
}

const DIALECTS = {
  claude: { section: 'mcpServers', topKeys: ['mcpServers'], disabledKey: true },
  vscode: { section: 'servers', topKeys: ['servers', 'inputs'], disabledKey: false },
} as const;

const TYPES = ['stdio', 'http', 'streamable-http', 'sse'];
const COPIED_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers'];

/**
 * Reads a foreign format as it is: unknown keys are warnings, ids that break the id rule are
 * normalised (with a warning), `type` becomes `transport` and `disabled` becomes `enabled`.
 */
export function translateForeign(
  doc: Record<string, unknown>,
  format: 'claude' | 'vscode',
  out: Problems,
): Translated {
  const dialect = DIALECTS[format];
  const { section } = dialect;
  for (const key of Object.keys(doc).filter((k) => !(dialect.topKeys as readonly string[]).includes(k))) {
    out.warn([key], `ignored key ${JSON.stringify(key)}; Carte reads only ${JSON.stringify(section)}`);
  }
  const written = doc[section] ?? {};
  const writtenIds = new Map<string, string>();
  const servers = new Map<string, unknown>();
  if (!isRecord(written)) {
    out.error([section], `expected an object of servers by id, got ${describeValue(written)}`);
  } else {
    for (const [id, writtenId] of assignIds(Object.keys(written), section, out)) {
      const server = translateServer(written[writtenId], [section, writtenId], dialect.disabledKey, out);
      writtenIds.set(id, writtenId);
      if (server !== undefined) servers.set(id, server);
    }
  }
  const remap = (path: Segment[]): Segment[] => {
    const [head, id, ...rest] = path;
    const original = head === 'servers' && typeof id === 'string' ? writtenIds.get(id) : undefined;
    return original === undefined ? path : [section, original, ...rest];
  };
  return { doc: { servers: Object.fromEntries(servers) }, writtenIds, remap };
}

/** Carte id -> written id. Valid ids are kept first, so a normalised id never takes one. */
function assignIds(written: string[], section: string, out: Problems): Map<string, string> {
  const ids = new Map<string, string>();
  for (const id of written.filter(isServerId)) ids.set(id, id);
  for (const id of written.filter((w) => !isServerId(w))) {
    const near = normaliseServerId(id);
    const holder = ids.get(near);
    const [was, now] = [JSON.stringify(id), JSON.stringify(near)];
    if (near === '') {
      out.error([section, id], `server id ${was} has no letters or digits to make a valid id from`);
    } else if (holder !== undefined) {
      out.error(
        [section, id],
        `server id ${was} becomes ${now}, which server ${JSON.stringify(holder)} already uses`,
      );
    } else {
      out.warn([section, id], `server id ${was} is not valid; using ${now}`);
      ids.set(near, id);
    }
  }
  return ids;
}

function translateServer(raw: unknown, path: Segment[], disabledKey: boolean, out: Problems): unknown {
  if (!isRecord(raw)) return raw; // Carte's own check reports it, at the remapped path.
  const known = [...COPIED_KEYS, 'type', ...(disabledKey ? ['disabled'] : [])];
  const server: Record<string, unknown> = {};
  let ok = true;
  for (const [key, value] of Object.entries(raw)) {
    if (COPIED_KEYS.includes(key)) server[key] = value;
    else if (key === 'disabled' && disabledKey) {
      if (typeof value === 'boolean') server.enabled = !value;
      else {
        out.error([...path, key], `expected true or false, got ${describeValue(value)}`);
        ok = false;
      }
    } else if (key !== 'type') {
      out.warn([...path, key], `ignored unknown key ${JSON.stringify(key)}${didYouMean(key, known)}`);
    }
  }
  if (!Object.hasOwn(raw, 'type')) return ok ? server : undefined;
  const type = raw.type;
  if (typeof type !== 'string' || !TYPES.includes(type)) {
    const hint = typeof type === 'string' ? didYouMean(type, TYPES) : '';
    out.error([...path, 'type'], `expected ${listChoices(TYPES)}, got ${describeValue(type)}${hint}`);
    return undefined;
  }
  const needs = type === 'stdio' ? 'command' : 'url';
  if (!Object.hasOwn(raw, needs)) {
    out.error(path, `type ${JSON.stringify(type)} needs ${JSON.stringify(needs)}`);
    return undefined;
  }
  // VS Code's "http" tries Streamable HTTP and falls back to SSE, which is what no transport means here.
  if (type === 'sse' || type === 'streamable-http') server.transport = type;
  return ok ? server : undefined;
}
