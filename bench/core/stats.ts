// Summary statistics for timing samples (milliseconds).

/** The value at quantile `q` (0-1) by nearest rank; NaN for no samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);

/** The usual latency summary of a set of samples. */
export interface Summary {
  n: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(samples: readonly number[]): Summary {
  const n = samples.length;
  return {
    n,
    min: n ? Math.min(...samples) : Number.NaN,
    p50: quantile(samples, 0.5),
    p95: quantile(samples, 0.95),
    p99: quantile(samples, 0.99),
    max: n ? Math.max(...samples) : Number.NaN,
    mean: n ? samples.reduce((a, b) => a + b, 0) / n : Number.NaN,
  };
}

/** Wall time of `fn` in milliseconds, with its result. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** Formats milliseconds for a table: 3 significant digits below 10, whole numbers above 100. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  const a = Math.abs(x);
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  return x.toFixed(a >= 1 ? 2 : 3);
}

/** A ratio as `1.23x`. */
export function ratio(a: number, b: number): string {
  return Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : 'n/a';
}
