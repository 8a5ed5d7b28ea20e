// Tokens saved (issue 14, item 7): per downstream session, what Carte sent (listings and the
// answers of search, browse and describe) against what the full listing of the tools it could see
// would have cost. Call results are not counted on either side: a client pays for them either way.
import type { VisibilityPolicy } from '../../policy/index.js';
import type { Store } from '../../store/index.js';
import type { Logger } from '../../upstream/index.js';
import { loadTokenizer } from './budget-tokens.js';
import { count } from './summary.js';

/** What a face reports when a session ends. */
export interface SessionReport {
  startedAt: number;
  /** Tokens of everything the face sent the client but call results. */
  tokensSent: number;
}

export class SessionLedger {
  private listing: { fingerprint: string; tokens: Promise<number> } | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  /**
   * Tokens of `{tools: [...]}` listing every listed tool as an MCP server would (name, title,
   * description, schemas, annotations), o200k. Computed once per catalog (policy fingerprint).
   */
  listingTokens(policy: VisibilityPolicy): Promise<number> {
    const fingerprint = policy.fingerprint();
    if (this.listing?.fingerprint !== fingerprint) {
      this.listing = { fingerprint, tokens: this.countListing(policy) };
    }
    return this.listing.tokens;
  }

  private async countListing(policy: VisibilityPolicy): Promise<number> {
    const tokenizer = await loadTokenizer();
    let total = 0;
    for (const t of await this.store.tools.listAll()) {
      if (!policy.isListed(t.key)) continue;
      const entry = {
        name: t.name,
        ...(t.title ? { title: t.title } : {}),
        ...(t.description ? { description: t.description } : {}),
        inputSchema: t.inputSchema,
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
        ...(t.annotations ? { annotations: t.annotations } : {}),
      };
      total += tokenizer.count(JSON.stringify(entry)) + 1; // +1: the comma between entries
    }
    return total + tokenizer.count('{"tools":[]}');
  }

  /** Records the session and logs what it saved; `close` waits for it. */
  end(policy: VisibilityPolicy, report: SessionReport, project: string): void {
    const write = this.listingTokens(policy)
      .then(async (tokensListing) => {
        const durationMs = Math.max(0, Date.now() - report.startedAt);
        await this.store.activity.recordSession({
          durationMs,
          tokensSent: report.tokensSent,
          tokensListing,
          project,
        });
        const saved = tokensListing - report.tokensSent;
        this.logger.info(
          `session ended after ${Math.round(durationMs / 1000)} s: Carte sent ${count(report.tokensSent, 'token')}; listing every tool would have cost ${count(tokensListing, 'token')} (${saved >= 0 ? `saved ${count(saved, 'token')}` : `${count(-saved, 'token')} more`})`,
        );
      })
      .catch((err: Error) => this.logger.warn(`cannot record the session's token use: ${err.message}`))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Waits for session records still being written. */
  async close(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
