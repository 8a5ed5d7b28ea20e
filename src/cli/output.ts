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

/** A count as people write it: `1 tool`, `0 tools`, `7,011 tools` (irregular plurals passed in). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}

/** Writes a line to stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
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
