import { CarteError } from '../errors.js';

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
