import { quote } from '../../errors.js';

/** One thing wrong (or worth a warning) in a config, at a dotted path like `servers.github.args.1`. */
export interface Problem {
  path: string;
  message: string;
}

/** One step of a path: an object key or an array index. */
export type Segment = string | number;

const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

/** Joins segments with dots; keys that are not plain words are written `["my.key"]`. */
export function formatPath(segments: readonly Segment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'string' && !PLAIN_KEY.test(s)) out += `[${JSON.stringify(s)}]`;
    else out += out === '' ? String(s) : `.${s}`;
  }
  return out;
}

/** Names a value for a message: strings quoted, scalars as they are, containers by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Names only the kind of a value, for places that may hold secrets (env, headers). */
export function describeKind(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  if (value === null) return 'null';
  return describeValue(value);
}

/** `"a", "b" or "c"`. */
export function listChoices(values: readonly unknown[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects errors and warnings; `remap` rewrites paths (foreign formats report their own keys). */
export class Problems {
  constructor(
    readonly errors: Problem[] = [],
    readonly warnings: Problem[] = [],
    private readonly remap: (path: Segment[]) => Segment[] = (p) => p,
  ) {}

  error(path: Segment[], message: string): void {
    this.errors.push({ path: formatPath(this.remap(path)), message });
  }

  warn(path: Segment[], message: string): void {
    this.warnings.push({ path: formatPath(this.remap(path)), message });
  }

  /** A collector writing to the same lists through another path mapping. */
  withRemap(remap: (path: Segment[]) => Segment[]): Problems {
    return new Problems(this.errors, this.warnings, remap);
  }
}
