import { prepared, type Db } from './sqlite.js';

/** A tool's accepted content: what its first clean listing or a person's approval said. */
export interface ToolPin {
  key: string;
  serverId: string;
  /** sha256 (hex) of `content`. */
  pinHash: string;
  /** Epoch milliseconds. */
  pinnedAt: number;
  /** Canonical JSON of the pinned name, description, input schema and annotations. */
  content: string;
}

export const QUARANTINE_KINDS = ['flagged', 'drift'] as const;
export type QuarantineKind = (typeof QUARANTINE_KINDS)[number];

/** A scanner finding as stored (the catalog's ScanFinding). */
export interface StoredFinding {
  rule: string;
  where: string;
  excerpt: string;
}

/** A tool held back until a person approves it. */
export interface QuarantineRow {
  key: string;
  serverId: string;
  kind: QuarantineKind;
  reason: string;
  findings: StoredFinding[];
  /** Epoch milliseconds: when it was quarantined. */
  since: number;
}

export interface PinDbRow {
  key: string;
  server_id: string;
  pin_hash: string;
  pinned_at: number;
  content: string;
}

export interface QuarantineDbRow {
  key: string;
  server_id: string;
  kind: QuarantineKind;
  reason: string;
  findings: string;
  since: number;
}

export const pinFromDb = (r: PinDbRow): ToolPin => ({
  key: r.key,
  serverId: r.server_id,
  pinHash: r.pin_hash,
  pinnedAt: r.pinned_at,
  content: r.content,
});

export const quarantineFromDb = (r: QuarantineDbRow): QuarantineRow => ({
  key: r.key,
  serverId: r.server_id,
  kind: r.kind,
  reason: r.reason,
  findings: JSON.parse(r.findings) as StoredFinding[],
  since: r.since,
});

/**
 * Tool pins and the quarantine (issue 15, item 7): poisoning and drift. Synchronous, so a sync
 * writes them inside its transaction; the rules live in catalog/trust/trust.ts.
 */
export class TrustRepo {
  /** Quarantine writes through this connection: a cached signature older than the last one is stale. */
  writes = 0;

  constructor(protected readonly db: Db) {}

  getPin(key: string): ToolPin | undefined {
    const row = prepared(this.db, 'SELECT * FROM tool_pins WHERE key = ?').get(key) as PinDbRow | undefined;
    return row && pinFromDb(row);
  }

  /** The server's pins by tool key. */
  pinsByServer(serverId: string): Map<string, ToolPin> {
    const rows = prepared(this.db, 'SELECT * FROM tool_pins WHERE server_id = ?').all(serverId) as PinDbRow[];
    return new Map(rows.map((r) => [r.key, pinFromDb(r)]));
  }

  upsertPin(pin: ToolPin): void {
    prepared(
      this.db,
      `INSERT INTO tool_pins (key, server_id, pin_hash, pinned_at, content)
       VALUES (@key, @serverId, @pinHash, @pinnedAt, @content)
       ON CONFLICT(key) DO UPDATE SET server_id = excluded.server_id, pin_hash = excluded.pin_hash,
         pinned_at = excluded.pinned_at, content = excluded.content`,
    ).run(pin);
  }

  deletePins(keys: readonly string[]): void {
    const del = prepared(this.db, 'DELETE FROM tool_pins WHERE key = ?');
    for (const key of keys) del.run(key);
  }

  /**
   * A cheap digest of the quarantine's contents (count, newest entry, keys' total length): it
   * changes when another process (`carte approve`) releases or adds a tool, so a running gateway
   * can notice without re-reading the table on every request.
   */
  signature(): string {
    return String(
      prepared(
        this.db,
        "SELECT count(*) || ':' || coalesce(max(since), 0) || ':' || coalesce(sum(length(key)), 0) FROM quarantine",
      )
        .pluck()
        .get(),
    );
  }

  /** Every quarantined tool (of one server when given), oldest first. */
  listQuarantine(serverId?: string): QuarantineRow[] {
    const rows = (
      serverId === undefined
        ? prepared(this.db, 'SELECT * FROM quarantine ORDER BY since, key').all()
        : prepared(this.db, 'SELECT * FROM quarantine WHERE server_id = ? ORDER BY since, key').all(serverId)
    ) as QuarantineDbRow[];
    return rows.map(quarantineFromDb);
  }

  getQuarantine(key: string): QuarantineRow | undefined {
    const row = prepared(this.db, 'SELECT * FROM quarantine WHERE key = ?').get(key) as
      QuarantineDbRow | undefined;
    return row && quarantineFromDb(row);
  }

  /** Quarantines a tool, or rewrites its entry. */
  putQuarantine(entry: QuarantineRow): void {
    prepared(
      this.db,
      `INSERT INTO quarantine (key, server_id, kind, reason, findings, since)
       VALUES (@key, @serverId, @kind, @reason, @findings, @since)
       ON CONFLICT(key) DO UPDATE SET server_id = excluded.server_id, kind = excluded.kind,
         reason = excluded.reason, findings = excluded.findings, since = excluded.since`,
    ).run({ ...entry, findings: JSON.stringify(entry.findings) });
    this.writes++;
  }

  /** Takes tools out of the quarantine (a no-op for a key that is not in it). */
  release(keys: readonly string[]): void {
    const del = prepared(this.db, 'DELETE FROM quarantine WHERE key = ?');
    for (const key of keys) del.run(key);
    this.writes++;
  }

  /** Forgets a server's pins and quarantine entries. */
  clearServer(serverId: string): void {
    prepared(this.db, 'DELETE FROM tool_pins WHERE server_id = ?').run(serverId);
    prepared(this.db, 'DELETE FROM quarantine WHERE server_id = ?').run(serverId);
    this.writes++;
  }
}
