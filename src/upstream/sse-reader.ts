// A Server-Sent Events reader for the answers of plain HTTP calls (plain-http.ts): text in as it
// arrives, each event's data out once its blank line has come (the WHATWG event-stream rules:
// `data:` lines joined with newlines, one optional space after the colon, comments and the
// `event`, `id` and `retry` fields ignored, any of CRLF, LF or CR ending a line).
export class SseReader {
  private pending = '';
  private data: string[] = [];
  /** The last chunk ended in CR: an LF that starts the next one belongs to the same line end. */
  private afterCr = false;

  constructor(private readonly onData: (data: string) => void) {}

  push(text: string): void {
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = text.endsWith('\r');
    const lines = (this.pending + text).split(/\r\n|\r|\n/);
    this.pending = lines.pop()!;
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) {
        const data = this.data.join('\n');
        this.data = [];
        this.onData(data);
      }
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon < 0 ? '' : line.slice(colon + 1);
    this.data.push(value.startsWith(' ') ? value.slice(1) : value);
  }
}
