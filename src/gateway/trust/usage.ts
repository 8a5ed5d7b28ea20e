// Usage accounting shared by the audit (trust/audit.ts), which writes every tool call's row:
// the tool a call runs, and a result's size estimated without serialising it (issue 14).

/** The tool a call runs. */
export interface CallTarget {
  key: string;
  server: string;
}

/** Arrays and objects with more entries than this are sized from an evenly spaced sample. */
export const SAMPLE_ABOVE = 64;
/** Entries sampled; after VISIT_BUDGET values, one (a deeply nested grid stays cheap). */
const SAMPLE = 32;
const VISIT_BUDGET = 4096;
/** Strings longer than this are sized from their first STRING_SAMPLE characters' UTF-8 length. */
const STRING_SAMPLE = 1024;

type Pending = [value: unknown, weight: number];

/**
 * The size of a result as compact JSON in UTF-8, estimated without serialising it (results are
 * parsed JSON: strings, numbers, booleans, null, arrays, objects). Exact when no string holds a
 * character JSON escapes (`\n` and `\"` count one byte, not two) and no array or object has more
 * than SAMPLE_ABOVE entries. A long string costs O(1) (its UTF-8 ratio is read from its first
 * 1,024 characters); a long array or object is sized from 32 evenly spaced entries scaled to its
 * length. So a 4 MB text result costs microseconds where JSON.stringify takes milliseconds
 * (docs/benchmarks-store.md, "Activity write").
 */
export function estimateJsonBytes(value: unknown): number {
  let bytes = 0;
  let visits = 0;
  const stack: Pending[] = [[value, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const n = ++visits > VISIT_BUDGET ? 1 : SAMPLE;
    bytes += item[1] * ownBytes(item[0], item[1], stack, n);
  }
  return Math.round(bytes);
}

/** The bytes `v` writes itself (quotes, brackets, commas, keys); sampled children go on the stack. */
function ownBytes(v: unknown, weight: number, stack: Pending[], n: number): number {
  if (typeof v === 'string') return 2 + utf8Length(v);
  if (typeof v === 'number') return String(v).length;
  if (typeof v === 'boolean') return v ? 4 : 5;
  if (v === null || typeof v !== 'object') return 4; // null (JSON has nothing else)
  const brackets = (count: number) => 1 + Math.max(count, 1); // and the commas between entries
  if (Array.isArray(v)) {
    const picked = sample(v, n);
    for (const x of picked) stack.push([x, (weight * v.length) / picked.length]);
    return brackets(v.length);
  }
  const record = v as Record<string, unknown>;
  const keys = Object.keys(record);
  const picked = sample(keys, n);
  const scale = keys.length / picked.length;
  let own = brackets(keys.length);
  for (const k of picked) {
    own += scale * (3 + utf8Length(k)); // "key":
    stack.push([record[k], weight * scale]);
  }
  return own;
}

function sample<T>(list: readonly T[], n: number): readonly T[] {
  if (list.length <= SAMPLE_ABOVE) return list;
  const step = list.length / n;
  return Array.from({ length: n }, (_, i) => list[Math.floor((i + 0.5) * step)]!); // each stratum's middle
}

function utf8Length(s: string): number {
  if (s.length <= STRING_SAMPLE) return Buffer.byteLength(s);
  return (s.length * Buffer.byteLength(s.slice(0, STRING_SAMPLE))) / STRING_SAMPLE;
}
