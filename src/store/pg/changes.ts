// How replicas learn of each other's changes: a write that changes the catalog, the quarantine,
// the tokens or an upstream sign-in sends `NOTIFY carte_changes` (delivered at commit, so only what landed), and every
// store LISTENs on one connection of its own. A listener that loses its connection reconnects
// and reports a change of every kind, since notifications sent meanwhile are lost.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { StoreChange } from '../sqlite/api.js';
import type { Queryable } from './db.js';

export const CHANGES_CHANNEL = 'carte_changes';
/** First wait before reconnecting a lost listener; doubles up to RECONNECT_MAX_MS. */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;
const ALL: readonly StoreChange[] = ['catalog', 'tokens', 'sign_ins'];

/** Tells the other replicas of a change (a repository's write calls it only when it changed something). */
export type Announce = () => Promise<void>;

/** Sends a change; inside a transaction it is delivered at commit, and not at all on rollback. */
export async function announce(q: Queryable, origin: string, change: StoreChange): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, `${origin} ${change}`]);
}

/** This process's changes, heard from the other stores (its own are left out). */
export class ChangeListener {
  /** Names this store's own notifications. */
  readonly origin = randomUUID();
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private client: pg.Client | undefined;
  private closed = false;
  private wait = RECONNECT_MIN_MS;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly onError: (err: Error) => void,
  ) {}

  subscribe(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.client && !this.timer) void this.connect(false);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(again: boolean): Promise<void> {
    this.timer = undefined;
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('the listening connection ended')));
    client.on('notification', (n) => this.heard(n.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    if (this.closed) return void client.end().catch(() => undefined);
    this.client = client;
    this.wait = RECONNECT_MIN_MS;
    if (again) for (const change of ALL) this.emit(change); // what was missed meanwhile
  }

  private heard(payload: string | undefined): void {
    const [origin, change] = (payload ?? '').split(' ');
    if (origin === this.origin || !ALL.includes(change as StoreChange)) return;
    this.emit(change as StoreChange);
  }

  private emit(change: StoreChange): void {
    for (const l of this.listeners) l(change);
  }

  private lost(client: pg.Client, err: Error): void {
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.client === client) this.client = undefined;
    if (this.closed || this.timer) return;
    this.onError(err);
    this.timer = setTimeout(() => void this.connect(true), this.wait);
    this.wait = Math.min(this.wait * 2, RECONNECT_MAX_MS);
  }
}
