import { CarteError } from '../../errors.js';

/** Parses an integer flag, naming the flag and the bad value on error. */
export function parseIntFlag(
  name: string,
  value: string | number | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new CarteError(
      'bad_input',
      `${name} must be an integer from ${min} to ${max}, not "${String(value)}"`,
    );
  }
  return n;
}

/** Parses repeated `K=V` flags into a record. */
export function parsePairs(name: string, value: string | string[] | undefined): Record<string, string> {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const pairs: Record<string, string> = {};
  for (const item of list) {
    const eq = String(item).indexOf('=');
    if (eq <= 0) throw new CarteError('bad_input', `${name} takes KEY=VALUE, not "${String(item)}"`);
    pairs[String(item).slice(0, eq)] = String(item).slice(eq + 1);
  }
  return pairs;
}

/** Parses a JSON flag, naming the flag on error. */
export function parseJsonFlag(name: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch (err) {
    throw new CarteError('bad_input', `${name} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Milliseconds per unit of a duration flag. */
const DURATION_UNITS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/**
 * Parses a duration flag such as `30m`, `24h`, `7d` or `2w` (a whole number, then one unit) into
 * milliseconds, naming the flag and the bad value on error.
 */
export function parseDurationFlag(name: string, value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^([0-9]{1,6})([mhdw])$/.exec(String(value).trim());
  const ms = m ? Number(m[1]) * DURATION_UNITS[m[2] as keyof typeof DURATION_UNITS] : 0;
  if (ms <= 0) {
    throw new CarteError(
      'bad_input',
      `${name} takes a duration such as 30m, 24h, 7d or 2w, not "${String(value)}"`,
    );
  }
  return ms;
}
