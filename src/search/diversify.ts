// Coverage diversification: a task text names several needs; do not spend the top on one of them.

/** The query terms a tool matched, each with its weight (idf times query weight). */
export type Aspects = ReadonlyMap<string, number>;

/**
 * Greedy re-rank of the first `window` candidates (xQuAD-style, with query terms as the aspects):
 * each round takes the tool maximising score * (1 - lambda * redundancy), where redundancy is the
 * weighted share of its matched terms that tools already taken have matched. The values returned
 * are these discounted scores; they never increase down the list.
 */
export function diversify(
  ranked: readonly number[],
  score: (i: number) => number,
  aspects: (i: number) => Aspects,
  options: { lambda: number; window: number },
): { doc: number; value: number }[] {
  const head = ranked.slice(0, options.window);
  const tail = ranked.slice(options.window);
  const covered = new Set<string>();
  const out: { doc: number; value: number }[] = [];
  const remaining = new Set(head);
  const value = (i: number): number => {
    let total = 0;
    let seen = 0;
    for (const [term, w] of aspects(i)) {
      total += w;
      if (covered.has(term)) seen += w;
    }
    return score(i) * (1 - options.lambda * (total > 0 ? seen / total : 0));
  };
  while (remaining.size > 0) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const i of remaining) {
      const v = value(i);
      if (v > bestValue || (v === bestValue && i < best)) {
        best = i;
        bestValue = v;
      }
    }
    remaining.delete(best);
    out.push({ doc: best, value: bestValue });
    for (const term of aspects(best).keys()) covered.add(term);
  }
  const floor = out.length > 0 ? out[out.length - 1]!.value : Number.POSITIVE_INFINITY;
  // Tools past the window keep their order and stay below the window's last value.
  for (const i of tail) out.push({ doc: i, value: Math.min(score(i), floor) });
  return out;
}
