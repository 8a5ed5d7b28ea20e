import type { Announce } from './changes.js';
import type { TrustContract } from './contracts.js';
import {
  pinFromDb,
  quarantineFromDb,
  type PinDbRow,
  type QuarantineDbRow,
  type QuarantineRow,
  type ToolPin,
} from '../sqlite/trust-repo.js';
import { changes, row, rows, type Queryable } from './db.js';

/** Tool pins and the quarantine on PostgreSQL: the contract of ../trust-repo.ts. */
export class PgTrustRepo implements TrustContract {
  /** Quarantine writes through this repository (as TrustRepo.writes). */
  writes = 0;

  constructor(
    private readonly q: Queryable,
    /** Tells the other replicas that the catalog changed (pg-store.ts). */
    private readonly announce: Announce = () => Promise.resolve(),
  ) {}

  async getPin(key: string): Promise<ToolPin | undefined> {
    const r = await row<PinDbRow>(this.q, 'SELECT * FROM tool_pins WHERE key = $1', [key]);
    return r && pinFromDb(r);
  }

  /** The server's pins by tool key. */
  async pinsByServer(serverId: string): Promise<Map<string, ToolPin>> {
    const found = await rows<PinDbRow>(this.q, 'SELECT * FROM tool_pins WHERE server_id = $1', [serverId]);
    return new Map(found.map((r) => [r.key, pinFromDb(r)]));
  }

  async upsertPin(pin: ToolPin): Promise<void> {
    await changes(
      this.q,
      `INSERT INTO tool_pins (key, server_id, pin_hash, pinned_at, content) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET server_id = excluded.server_id, pin_hash = excluded.pin_hash,
         pinned_at = excluded.pinned_at, content = excluded.content`,
      [pin.key, pin.serverId, pin.pinHash, pin.pinnedAt, pin.content],
    );
  }

  async deletePins(keys: readonly string[]): Promise<void> {
    if (keys.length > 0)
      await changes(this.q, 'DELETE FROM tool_pins WHERE key = ANY($1::text[])', [[...keys]]);
  }

  /**
   * The same digest as TrustRepo.signature (count, newest entry, keys' total length): it changes
   * when another process (or replica) releases or adds a tool.
   */
  async signature(): Promise<string> {
    const sql = `SELECT count(*) || ':' || coalesce(max(since), 0) || ':' || coalesce(sum(length(key)), 0) AS s
                 FROM quarantine`;
    return (await row<{ s: string }>(this.q, sql))!.s;
  }

  /** Every quarantined tool (of one server when given), oldest first. */
  async listQuarantine(serverId?: string): Promise<QuarantineRow[]> {
    const found = await rows<QuarantineDbRow>(
      this.q,
      'SELECT * FROM quarantine WHERE ($1::text IS NULL OR server_id = $1::text) ORDER BY since, key',
      [serverId ?? null],
    );
    return found.map(quarantineFromDb);
  }

  async getQuarantine(key: string): Promise<QuarantineRow | undefined> {
    const r = await row<QuarantineDbRow>(this.q, 'SELECT * FROM quarantine WHERE key = $1', [key]);
    return r && quarantineFromDb(r);
  }

  // The writes below announce only when a row changed, so a sync that holds the same tools as
  // before wakes no other replica.

  /** Quarantines a tool, or rewrites its entry (an identical entry is left as it is). */
  async putQuarantine(e: QuarantineRow): Promise<void> {
    const n = await changes(
      this.q,
      `INSERT INTO quarantine (key, server_id, kind, reason, findings, since) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET server_id = excluded.server_id, kind = excluded.kind,
         reason = excluded.reason, findings = excluded.findings, since = excluded.since
       WHERE (quarantine.server_id, quarantine.kind, quarantine.reason, quarantine.findings, quarantine.since)
         IS DISTINCT FROM (excluded.server_id, excluded.kind, excluded.reason, excluded.findings, excluded.since)`,
      [e.key, e.serverId, e.kind, e.reason, JSON.stringify(e.findings), e.since],
    );
    this.writes++;
    if (n > 0) await this.announce();
  }

  /** Takes tools out of the quarantine (a no-op for a key that is not in it). */
  async release(keys: readonly string[]): Promise<void> {
    const n = await changes(this.q, 'DELETE FROM quarantine WHERE key = ANY($1::text[])', [[...keys]]);
    this.writes++;
    if (n > 0) await this.announce();
  }

  /** Forgets a server's pins and quarantine entries. */
  async clearServer(serverId: string): Promise<void> {
    const pins = await changes(this.q, 'DELETE FROM tool_pins WHERE server_id = $1', [serverId]);
    const held = await changes(this.q, 'DELETE FROM quarantine WHERE server_id = $1', [serverId]);
    this.writes++;
    if (pins + held > 0) await this.announce();
  }
}
