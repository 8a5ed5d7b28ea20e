// A Server-Sent Events reader for the answers of plain HTTP calls (plain-http.ts): text in as it
// arrives, each event's data out once its blank line has come (the WHATWG event-stream rules:
// `data:` lines joined with newlines, one optional space after the colon, comments and the
// `event` field ignored, any of CRLF, LF or CR ending a line). The last `id` and `retry` are kept
// for a resumption (SEP-1699: wait `retry` ms, then GET with `Last-Event-ID`).
export class SseReader {
  /** The last event id the stream gave (an `id` field without NUL), for `Last-Event-ID`. */
  lastEventId: string | undefined;
  /** The reconnection time the server asked for (the last `retry` field of digits only), in ms. */
  retryMs: number | undefined;
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
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }
}
