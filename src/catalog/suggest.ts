/** Edit distance (Levenshtein), capped: returns cap + 1 once the distance exceeds cap. */
export function editDistance(a: string, b: string, cap = 64): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

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
