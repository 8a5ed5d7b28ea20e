/**
 * Provider-safe tool names for direct mode (issue 14, item 6), where `tools/list` shows upstream
 * tools themselves and a name must pass every provider's check: 1 to 64 characters of
 * `[A-Za-z0-9_-]` (OpenAI's and Anthropic's function-name pattern).
 *
 * The rule, for a catalog key `server/tool` (split at the first `/`: server ids have none):
 * 1. The readable form is `server__tool`, with each run of other characters (dots, slashes,
 *    spaces, any non-ASCII) written as one `_`. It is lossy when something was replaced.
 * 2. A key keeps its readable form when that form has 1 to 64 characters, is no meta-tool's name,
 *    and no other key has the same form; of keys sharing a form, the one lossless key (if exactly
 *    one) keeps it, so `a/b_c` stays `a__b_c` next to `a/b.c`.
 * 3. Every other key gets `<readable, cut to 57>_<6 chars>`, the six being base-36 digits of the
 *    SHA-256 of the key. The cut takes the server id first, down to 16 characters, so that the
 *    tool's own name survives:
 *    `cfocoder-financial-modeling-prep-mcp-server/getBalanceSheetStatementTTM` is named
 *    `cfocoder-financial-modeling-__getBalanceSheetStatementTTM_6ktmrz`.
 *    Should that name be taken anyway (a 31-bit clash, or a tool literally named like it), the
 *    hash of `key + "\0" + n` is used, for n = 1, 2, ..., taking the keys in sorted order.
 * Clashes aside, a name depends only on its key and on the keys that share its readable form,
 * never on the order of the input: the same catalog gives the same names after a restart. Pass
 * the whole visible catalog, not just the exposed tools, so exposing a tool never renames another.
 */
import { createHash } from 'node:crypto';
import { META_TOOLS } from './meta-tools.js';

/** Longest name providers accept (OpenAI, Anthropic: `^[a-zA-Z0-9_-]{1,64}$`). */
export const MAX_NAME_LENGTH = 64;
/** Base-36 digits of the hash suffix: 36^6, about 2.2e9 values. */
const HASH_LENGTH = 6;
/** Room for the readable part of a suffixed name. */
const HEAD_LENGTH = MAX_NAME_LENGTH - HASH_LENGTH - 1;
/** A cut server id keeps at least this much of itself; a longer tool name is cut instead. */
const MIN_SERVER_LENGTH = 16;
const SEPARATOR = '__';
const SAFE = /^[A-Za-z0-9_-]{1,64}$/;
const UNSAFE_RUN = /[^A-Za-z0-9_-]+/gu;
const RESERVED: ReadonlySet<string> = new Set(META_TOOLS.map((t) => t.name));

/** Whether a provider accepts this as a tool name: 1 to 64 characters of `[A-Za-z0-9_-]`. */
export function isProviderSafe(name: string): boolean {
  return SAFE.test(name);
}

interface Readable {
  key: string;
  /** `server__tool` (or just the tool for a key without "/"), made safe. */
  text: string;
  server: string | undefined;
  tool: string;
  lossy: boolean;
}

/** Maps every catalog key to a unique provider-safe name, by the rule in this file's header. */
export function directNames(keys: readonly string[]): Map<string, string> {
  const readable = [...new Set(keys)].sort().map(readableName);
  const plain = plainNames(readable);
  const taken = new Set([...RESERVED, ...plain.values()]);
  const names = new Map<string, string>();
  for (const r of readable) {
    let name = plain.get(r.key);
    if (name === undefined) {
      for (let n = 0; name === undefined || taken.has(name); n++) name = suffixed(r, n);
      taken.add(name);
    }
    names.set(r.key, name);
  }
  return names;
}

/** The keys that keep their readable form (rule 2), with that form. */
function plainNames(readable: readonly Readable[]): Map<string, string> {
  const groups = new Map<string, Readable[]>();
  for (const r of readable) {
    const group = groups.get(r.text);
    if (group) group.push(r);
    else groups.set(r.text, [r]);
  }
  const plain = new Map<string, string>();
  for (const [text, group] of groups) {
    if (text.length === 0 || text.length > MAX_NAME_LENGTH || RESERVED.has(text)) continue;
    const lossless = group.filter((r) => !r.lossy);
    const owner = group.length === 1 ? group[0] : lossless.length === 1 ? lossless[0] : undefined;
    if (owner) plain.set(owner.key, text);
  }
  return plain;
}

function readableName(key: string): Readable {
  const slash = key.indexOf('/');
  const [rawServer, rawTool] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  const server = rawServer?.replace(UNSAFE_RUN, '_');
  const tool = rawTool.replace(UNSAFE_RUN, '_');
  const text = server === undefined ? tool : `${server}${SEPARATOR}${tool}`;
  return { key, text, server, tool, lossy: server !== rawServer || tool !== rawTool };
}

function suffixed(r: Readable, attempt: number): string {
  let head = r.text;
  if (head.length > HEAD_LENGTH && r.server !== undefined) {
    const room = Math.max(MIN_SERVER_LENGTH, HEAD_LENGTH - SEPARATOR.length - r.tool.length);
    head = `${r.server.slice(0, room)}${SEPARATOR}${r.tool}`;
  }
  return `${head.slice(0, HEAD_LENGTH)}_${hash(attempt === 0 ? r.key : `${r.key}\0${attempt}`)}`;
}

/** Six base-36 digits from the first 48 bits of SHA-256 (reduced mod 36^6, near uniform). */
function hash(text: string): string {
  const n = createHash('sha256').update(text).digest().readUIntBE(0, 6);
  return (n % 36 ** HASH_LENGTH).toString(36).padStart(HASH_LENGTH, '0');
}
