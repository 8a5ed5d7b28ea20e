import { editDistance } from '../../search/index.js';

/**
 * The known keys closest to an unknown one: within a third of its length in edits (at least 2),
 * best first, at most `max`. Same-name keys on other servers count as close.
 */
export function closestKeys(unknown: string, known: readonly string[], max = 3): string[] {
  const wanted = unknown.toLowerCase();
  const wantedName = wanted.slice(wanted.indexOf('/') + 1);
  const cap = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<[string, number]> = [];
  for (const key of known) {
    const k = key.toLowerCase();
    const name = k.slice(k.indexOf('/') + 1);
    const d = Math.min(editDistance(wanted, k, cap), name === wantedName ? 1 : cap + 1);
    if (d <= cap) scored.push([key, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  // Only the nearest and near-nearest: a far second guess is noise next to a close first one.
  const best = scored[0]?.[1] ?? 0;
  return scored
    .filter(([, d]) => d <= best + 1)
    .slice(0, max)
    .map(([k]) => k);
}
