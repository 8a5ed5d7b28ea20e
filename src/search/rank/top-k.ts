// Selecting the k best items without sorting them all (a bounded binary min-heap).

/**
 * The `k` items of `items` with the highest `score`, best first; ties go to the smaller item.
 * O(n log k) instead of O(n log n): a long query touches thousands of tools but we keep dozens.
 */
export function topK(items: readonly number[], score: (i: number) => number, k: number): number[] {
  if (k <= 0) return [];
  // worse(a, b): a ranks below b.
  const worse = (a: number, b: number): boolean => {
    const sa = score(a);
    const sb = score(b);
    return sa < sb || (sa === sb && a > b);
  };
  const heap: number[] = [];
  const down = (from: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (worse(heap[0]!, item)) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
