// Types for scripts/build-web.mjs, which the page's budget test imports (test/browser/web-budget.test.ts).
export const BUDGET: number;
export function isOutsideBudget(path: string): boolean;
export function buildWeb(outdir: string): Promise<void>;
export interface WebWeight {
  /** Each counted file, largest first: its path under the folder, raw bytes and gzipped bytes. */
  files: { path: string; bytes: number; gzip: number }[];
  bytes: number;
  gzip: number;
}
export function weighWeb(dir: string): WebWeight;
export function describeWeight(weight: WebWeight): string;
