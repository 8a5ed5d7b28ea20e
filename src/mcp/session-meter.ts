// Counts the tokens the MCP face sends one client session (listings and meta-tool answers, not
// call results), for the tokens-saved figure (gateway SessionLedger). Counting runs off the
// request path: texts are queued and tokenised once the tokenizer has loaded.
import { loadTokenizer, type Tokenizer } from '../gateway/index.js';

export class SessionMeter {
  private readonly startedAt = Date.now();
  private tokens = 0;
  private tokenizer: Tokenizer | undefined;
  private queue: string[] = [];
  private loading = false;

  /** Something the face sent: counted now if the tokenizer is loaded, else when it is. */
  sent(text: string): void {
    if (this.tokenizer) {
      this.tokens += this.tokenizer.count(text);
      return;
    }
    this.queue.push(text);
    if (this.loading) return;
    this.loading = true;
    loadTokenizer()
      .then((t) => {
        this.tokenizer = t;
        for (const q of this.queue) this.tokens += t.count(q);
        this.queue = [];
      })
      .catch(() => undefined); // no tokenizer: the figure counts what was counted
  }

  /** The session so far (texts still queued are estimated at 4 characters a token). */
  report(): { startedAt: number; tokensSent: number } {
    const queued = this.queue.reduce((n, q) => n + Math.ceil(q.length / 4), 0);
    return { startedAt: this.startedAt, tokensSent: this.tokens + queued };
  }
}
