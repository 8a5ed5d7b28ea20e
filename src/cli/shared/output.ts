import { once } from 'node:events';
export { count } from '../../gateway/index.js';
/** Prints rows as aligned columns (the last column is not padded). */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, width(cell))));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - width(cell))))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Display width: CJK and other wide characters take two columns. */
function width(text: string): number {
  let w = 0;
  for (const ch of text)
    w +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(
        ch,
      )
        ? 2
        : 1;
  return w;
}

/** Writes a line to stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Writes lines to stdout, waiting whenever the pipe is full: a long export then neither piles up
 * in memory nor outruns a slow reader (`carte audit export | gzip`).
 */
export async function outLines(lines: Iterable<string>): Promise<void> {
  for (const line of lines) if (!process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
}

/** Writes a value as stable, pretty JSON to stdout. */
export function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** Writes a progress or status line to stderr. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** Cuts text to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A config problem as `path: message`, or just the message when it concerns the whole file. */
export function formatProblem(p: { path: string; message: string }): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

/** A duration for a table: `0.4 ms`, `12 ms`, `1.3 s`. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  return ms >= 10 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}

/** A past time relative to `now`: `just now`, `5m ago`, `3h ago`, `2d ago`. */
export function formatAgo(iso: string, now: number = Date.now()): string {
  const s = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/** A ratio 0..1 as a percentage with at most one decimal: `0%`, `12.5%`, `100%`. */
export function formatPercent(ratio: number): string {
  return `${Math.round(ratio * 1000) / 10}%`;
}
