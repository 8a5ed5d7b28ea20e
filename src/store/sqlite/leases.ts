// Owners of `started` rows on SQLite (issue 40, item 4). Several processes share one data dir: the
// daemon (`carte serve --http`), stdio servers that found no daemon, `carte call`, and commands that
// only read. So "started before this start" does not mean "dead": the daemon's calls in flight are
// started too. Each process that begins a call takes a lease: a row in `leases` and a lock file,
// `<store>-owners/<owner>.lock`, held with an exclusive SQLite lock for as long as it lives. The OS
// drops the lock when the process ends, however it ends (SIGKILL, OOM, power), so a free lock file
// means a dead owner, at once and without clocks; a pid could be reused (a container restarted
// gets pid 1 again), a lock cannot. Each start probes the other leases' files; a dead owner's
// `started` rows become `interrupted`, with the probing start's time, in one transaction that also
// deletes its lease. A process that only reads never takes a lease and writes nothing here unless
// it finds a dead owner.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { INTERRUPTED, STARTED } from './activity-stats.js';
import { prepared, type Db } from './sqlite.js';

/** Where a process's lease is held: the store of one data dir, and who owns the rows it begins. */
export interface OwnerLease {
  /** The id written in `activity.owner` of the rows this process begins. */
  readonly owner: string;
  /** Takes the lease if not yet held (before this process's first `started` row). */
  ensure(): void;
}

/** A PostgreSQL replica's lease: renewed every `renewMs`, taken for dead `ttlMs` after its last renewal. */
export interface LeaseOptions {
  renewMs: number;
  ttlMs: number;
}

/**
 * A PostgreSQL replica's lease (pg/leases.ts; store.leaseSeconds): renewed every 15 s, dead after 60 s without: a killed replica's calls read `interrupted` within
 * about a minute, and a replica must miss three renewals in a row (a database failover, a long GC
 * pause) before its live calls are taken for dead. Range: renewMs >= 100, ttlMs >= 2 * renewMs.
 */
export const LEASE_DEFAULTS: LeaseOptions = { renewMs: 15_000, ttlMs: 60_000 };

/** What a sweep found: how many rows it set `interrupted`, and of how many dead owners. */
export interface SweepResult {
  owners: number;
  rows: number;
}

export class SqliteLeases implements OwnerLease {
  readonly owner = `${hostname().slice(0, 32)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private lock: Db | undefined;

  /** `path` is the store file; `:memory:` has no other process, so no lease. */
  constructor(
    private readonly db: Db,
    private readonly path: string,
  ) {}

  private get dir(): string {
    return `${this.path}-owners`;
  }

  ensure(): void {
    if (this.lock || this.path === ':memory:') return;
    mkdirSync(this.dir, { recursive: true });
    const lock = new Database(lockFile(this.dir, this.owner));
    // Held from the first write until the connection closes (the process ends); no journal file.
    lock.pragma('journal_mode = OFF');
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS held (x); BEGIN EXCLUSIVE; COMMIT');
    this.lock = lock;
    const now = Date.now();
    prepared(
      this.db,
      'INSERT INTO leases (owner, host, pid, started_at, renewed_at) VALUES (?, ?, ?, ?, ?)',
    ).run(this.owner, hostname(), process.pid, now, now);
  }

  /** Sets the `started` rows of every dead owner `interrupted` (at `now`), and drops their leases. */
  sweep(now: number = Date.now()): SweepResult {
    const found: SweepResult = { owners: 0, rows: 0 };
    if (this.path === ':memory:') return found;
    const owners = prepared(this.db, 'SELECT owner FROM leases').pluck().all() as string[];
    for (const owner of owners) {
      if (owner === this.owner || isHeld(lockFile(this.dir, owner))) continue;
      found.owners++;
      found.rows += this.db.transaction(() => interrupt(this.db, owner, now)).immediate();
      rmSync(lockFile(this.dir, owner), { force: true });
    }
    return found;
  }

  /**
   * Lets the lock go as the store closes. With no call in flight the lease ends (row and file);
   * with calls in flight it stays, so the next start finds it free and their rows `interrupted`,
   * as after a kill.
   */
  close(inFlight: number): void {
    if (!this.lock) return;
    if (inFlight === 0) prepared(this.db, 'DELETE FROM leases WHERE owner = ?').run(this.owner);
    this.lock.close();
    this.lock = undefined;
    if (inFlight === 0) rmSync(lockFile(this.dir, this.owner), { force: true });
  }
}

/** Sets `owner`'s started rows interrupted and deletes its lease; how many rows. */
export function interrupt(db: Db, owner: string, now: number): number {
  const rows = prepared(
    db,
    `UPDATE activity SET outcome = '${INTERRUPTED}', detail = ? WHERE owner = ? AND outcome = '${STARTED}'`,
  ).run(new Date(now).toISOString(), owner).changes;
  prepared(db, 'DELETE FROM leases WHERE owner = ?').run(owner);
  return rows;
}

function lockFile(dir: string, owner: string): string {
  return join(dir, `${owner.replace(/[^A-Za-z0-9_.-]/g, '_')}.lock`);
}

/** True while another connection (any process, this one included) holds the lock file; false when it is free or gone. */
function isHeld(file: string): boolean {
  let probe: Db;
  try {
    probe = new Database(file, { fileMustExist: true, timeout: 0 });
  } catch {
    return false; // no file: its owner never got as far as a row, or a sweep removed it
  }
  try {
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('ROLLBACK');
    return false;
  } catch {
    return true; // SQLITE_BUSY: its owner lives
  } finally {
    probe.close();
  }
}
