import type { SecretBox } from '../sqlite/secret-box.js';
import {
  metaFromDb,
  resealed,
  sealContext,
  SHARED_SUBJECT,
  type ResealProgress,
  type UpstreamAuthDbRow,
  type UpstreamAuthFacts,
  type UpstreamAuthMeta,
} from '../sqlite/upstream-auth-repo.js';
import type { Announce } from './changes.js';
import type { UpstreamAuthContract } from './contracts.js';
import { atomically, changes, row, rows, type Queryable } from './db.js';

/** Sealed upstream sign-ins on PostgreSQL: the contract of ../sqlite/upstream-auth-repo.ts. */
export class PgUpstreamAuthRepo implements UpstreamAuthContract {
  constructor(
    private readonly q: Queryable,
    private readonly box: SecretBox,
    /** Tells the other replicas a sign-in was saved or forgotten (they reload it: one sign-in everywhere). */
    private readonly announce: Announce = () => Promise.resolve(),
  ) {}

  async get(
    serverId: string,
    subject: string = SHARED_SUBJECT,
  ): Promise<{ meta: UpstreamAuthMeta; record: unknown } | undefined> {
    const r = await row<UpstreamAuthDbRow>(
      this.q,
      'SELECT * FROM upstream_auth WHERE server_id = $1 AND subject = $2',
      [serverId, subject],
    );
    if (!r) return undefined;
    return {
      meta: metaFromDb(r),
      record: JSON.parse(this.box.open(r.sealed, sealContext(serverId, subject))),
    };
  }

  async put(
    serverId: string,
    record: unknown,
    facts: UpstreamAuthFacts,
    at: number = Date.now(),
  ): Promise<void> {
    const { subject = SHARED_SUBJECT, ...clear } = facts;
    const sealed = this.box.seal(JSON.stringify(record), sealContext(serverId, subject));
    await changes(
      this.q,
      `INSERT INTO upstream_auth (server_id, subject, sealed, expires_at, scope, refreshable, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (server_id, subject) DO UPDATE SET sealed = excluded.sealed,
         expires_at = excluded.expires_at, scope = excluded.scope, refreshable = excluded.refreshable,
         updated_at = excluded.updated_at`,
      [serverId, subject, sealed, clear.expiresAt, clear.scope, clear.refreshable ? 1 : 0, at],
    );
    await this.announce();
  }

  /** The SQLite repo's `reseal`: every row not under the current key, in one transaction. */
  async reseal(progress?: ResealProgress): Promise<{ resealed: number; total: number }> {
    this.box.check();
    return atomically(this.q, async (client) => {
      const all = await rows<UpstreamAuthDbRow>(
        client,
        'SELECT * FROM upstream_auth ORDER BY server_id, subject FOR UPDATE',
      );
      let count = 0;
      for (const [i, r] of all.entries()) {
        progress?.(r.server_id, i, all.length);
        const sealed = resealed(this.box, r);
        if (sealed === undefined) continue;
        await changes(client, 'UPDATE upstream_auth SET sealed = $1 WHERE sealed = $2', [sealed, r.sealed]);
        count++;
      }
      return { resealed: count, total: all.length };
    });
  }

  async remove(serverId: string, subject: string = SHARED_SUBJECT): Promise<boolean> {
    const removed =
      (await changes(this.q, 'DELETE FROM upstream_auth WHERE server_id = $1 AND subject = $2', [
        serverId,
        subject,
      ])) > 0;
    if (removed) await this.announce();
    return removed;
  }

  async signature(): Promise<string> {
    const r = await row<{ s: string }>(
      this.q,
      "SELECT count(*) || ':' || coalesce(max(updated_at), 0) || ':' || coalesce(sum(updated_at % 1000003), 0) AS s FROM upstream_auth",
      [],
    );
    return r?.s ?? '0:0:0';
  }

  async list(): Promise<UpstreamAuthMeta[]> {
    return (
      await rows<UpstreamAuthDbRow>(this.q, 'SELECT * FROM upstream_auth ORDER BY server_id, subject')
    ).map(metaFromDb);
  }
}
