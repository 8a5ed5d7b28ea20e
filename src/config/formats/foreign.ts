import { DIALECTS } from './dialects.js';
import type { EnvFileContext } from '../variables/env-file.js';
import { translateServer } from './foreign-server.js';
import { describeValue, isRecord, type Problems, type Segment } from '../problems/problems.js';
import { isServerId, normaliseServerId } from '../schema/server-ids.js';

/** A Claude / Cursor or VS Code document rewritten into Carte's shape, and how to map paths back. */
export interface Translated {
  doc: { servers: Record<string, unknown> };
  /** Carte id -> id as written in the file. */
  writtenIds: Map<string, string>;
  /** Rewrites `servers.<id>.<key>...` back to the file's own section, id and key. */
  remap: (path: Segment[]) => Segment[];
}

export interface ForeignOptions extends Omit<EnvFileContext, 'server'> {
  format: 'claude' | 'vscode';
}

/**
 * Reads a foreign format as it is: unknown keys are warnings, ids that break the id rule are
 * normalised (with a warning), and each server's keys are mapped to Carte's (see foreign-server.ts).
 * A VS Code `envFile` is read here, so this touches the file system.
 */
export function translateForeign(
  doc: Record<string, unknown>,
  opts: ForeignOptions,
  out: Problems,
): Translated {
  const dialect = DIALECTS[opts.format];
  const { section } = dialect;
  for (const key of Object.keys(doc).filter((k) => !(dialect.topKeys as readonly string[]).includes(k))) {
    out.warn([key], `ignored key ${JSON.stringify(key)}; Carte reads only ${JSON.stringify(section)}`);
  }
  const written = doc[section] ?? {};
  const writtenIds = new Map<string, string>();
  const renames = new Map<string, Map<string, string>>();
  const servers = new Map<string, unknown>();
  if (!isRecord(written)) {
    out.error([section], `expected an object of servers by id, got ${describeValue(written)}`);
  } else {
    for (const [id, writtenId] of assignIds(Object.keys(written), section, out)) {
      const files = { ...opts, server: writtenId };
      const place = { path: [section, writtenId], dialect, files };
      const t = translateServer(written[writtenId], place, out);
      writtenIds.set(id, writtenId);
      renames.set(id, t.renames);
      if (t.server !== undefined) servers.set(id, t.server);
    }
  }
  const remap = (path: Segment[]): Segment[] => {
    const [head, id, key, ...rest] = path;
    const original = head === 'servers' && typeof id === 'string' ? writtenIds.get(id) : undefined;
    if (original === undefined) return path;
    if (key === undefined) return [section, original];
    const asWritten = typeof key === 'string' ? renames.get(id as string)?.get(key) : undefined;
    return [section, original, asWritten ?? key, ...rest];
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
