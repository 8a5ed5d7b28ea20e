import type { Document } from 'yaml';
import { yamlLib } from '../parse/yaml-lib.js';
import { CarteError, quote } from '../../errors.js';
import { parseJsonc } from '../parse/parse-json.js';
import { lineAndColumn } from '../parse/parse-text.js';
import { isRecord } from '../problems/problems.js';

/** The servers section, whatever the file's syntax. */
export interface ServersView {
  keys(): string[];
  /** The entry as plain data, or undefined. */
  get(id: string): unknown;
  /** Adds an entry; in YAML, `comment` is written on its own line above it. */
  set(id: string, entry: Record<string, unknown>, comment?: string): void;
  /** Removes an entry; in YAML, with `comment` above it when that is the comment there. */
  delete(id: string, comment?: string): boolean;
}

/** Changes the servers section; returns false when nothing changed (the file is then left alone). */
export type ServersEdit = (servers: ServersView, doc: unknown) => boolean;

/** Edits a YAML file through the Document API, which keeps comments, order and styles. */
export function editYaml(path: string, text: string, change: ServersEdit): string | undefined {
  const { isMap, isScalar, LineCounter, parseDocument, YAMLMap } = yamlLib();
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const { line, col } = lineCounter.linePos(first.pos[0]);
    throw badFile(path, `it is not valid YAML (line ${line}, column ${col}: ${first.message})`);
  }
  if (isNothing(doc.contents)) doc.contents = new YAMLMap();
  if (!isMap(doc.contents)) throw badFile(path, 'its top level is not a mapping');
  const section = doc.has('mcpServers') ? 'mcpServers' : 'servers';
  let servers = doc.get(section, true);
  if (isNothing(servers)) {
    servers = new YAMLMap();
    doc.set(section, servers);
  }
  if (!isMap(servers)) throw badFile(path, `its ${JSON.stringify(section)} is not a mapping`);
  const map = servers;
  const data = toData(doc);
  const view: ServersView = {
    keys: () => map.items.map((p) => String(isScalar(p.key) ? p.key.value : p.key)),
    get: (id) => entryOf(isRecord(data) ? data[section] : undefined, id),
    set: (id, entry, comment) => {
      if (map.items.length === 0) map.flow = false; // `servers: {}` grows into a block
      const key = doc.createNode(id);
      if (comment !== undefined) key.commentBefore = ` ${comment}`;
      map.set(key, doc.createNode(entry));
    },
    delete: (id, comment) => {
      // The comment above a map's first entry belongs to the map itself in the yaml package.
      const first = map.items[0];
      const isFirst = first !== undefined && isScalar(first.key) && first.key.value === id;
      if (isFirst && comment !== undefined && map.commentBefore === ` ${comment}`) {
        map.commentBefore = undefined;
      }
      return map.delete(id);
    },
  };
  if (!change(view, toData(doc))) return undefined;
  return doc.toString({ lineWidth: 0 });
}

/** Edits a JSON file: parse (comments allowed), change, write back with 2-space indent. */
export function editJson(path: string, text: string, change: ServersEdit): string | undefined {
  const parsed = text.trim() === '' ? { ok: true as const, value: {} } : parseJsonc(text);
  if (!parsed.ok) {
    const { line, col } = lineAndColumn(text, parsed.offset);
    throw badFile(path, `it is not valid JSON (line ${line}, column ${col}: ${parsed.message})`);
  }
  const doc = parsed.value;
  if (!isRecord(doc)) throw badFile(path, 'its top level is not an object');
  const section = Object.hasOwn(doc, 'mcpServers') ? 'mcpServers' : 'servers';
  const servers = doc[section] ?? {};
  if (!isRecord(servers)) throw badFile(path, `its ${JSON.stringify(section)} is not an object`);
  let entries = Object.entries(servers);
  const view: ServersView = {
    keys: () => entries.map(([k]) => k),
    get: (id) => entryOf(servers, id),
    set: (id, entry) => {
      entries.push([id, entry]);
    },
    delete: (id) => {
      const before = entries.length;
      entries = entries.filter(([k]) => k !== id);
      return entries.length !== before;
    },
  };
  if (!change(view, doc)) return undefined;
  // Spreading keeps every key where it was; fromEntries keeps a "__proto__" id an ordinary key.
  return `${JSON.stringify({ ...doc, [section]: Object.fromEntries(entries) }, null, 2)}\n`;
}

function entryOf(servers: unknown, id: string): unknown {
  return isRecord(servers) && Object.hasOwn(servers, id) ? servers[id] : undefined;
}

/** An empty document or an empty value (`servers:` with nothing under it). */
function isNothing(node: unknown): boolean {
  return node === undefined || node === null || (yamlLib().isScalar(node) && node.value === null);
}

function toData(doc: Document): unknown {
  try {
    return doc.toJS();
  } catch {
    return undefined;
  }
}

function badFile(path: string, why: string): CarteError {
  return new CarteError('bad_config', `cannot edit ${quote(path, 200)}: ${why}`);
}
