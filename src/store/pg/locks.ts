// Work that one replica at a time may do (a server's sync), under a PostgreSQL advisory lock.
// Locks are held on one connection of their own per store, taken with pg_try_advisory_lock and
// retried: a blocking pg_advisory_lock would stall that connection for every other lock. Session
// locks are re-entrant, so work of the same name in this process is also queued here first.
import pg from 'pg';
import { NamedQueue } from '../sqlite/sqlite-store.js';

/** How often a lock held elsewhere is tried again. */
const RETRY_MS = 200;

export class AdvisoryLocks {
  private client: Promise<pg.Client> | undefined;
  private readonly queue = new NamedQueue();

  constructor(private readonly connectionString: string) {}

  /** Runs `fn` while holding the lock `name` (across every replica on the database). */
  hold<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.queue.run(name, () => this.locked(name, fn));
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await (await client.catch(() => undefined))?.end().catch(() => undefined);
  }

  private async locked<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const client = await this.connection();
    for (;;) {
      const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [
        name,
      ]);
      if (r.rows[0]?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => this.drop(client));
    }
  }

  /** The lock connection, opened on first use and again after it broke (its locks went with it). */
  private connection(): Promise<pg.Client> {
    if (!this.client) {
      const client = new pg.Client({ connectionString: this.connectionString });
      client.on('error', () => this.drop(client));
      this.client = client.connect().then(() => client);
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }

  private drop(client: pg.Client): void {
    void this.client?.then((c) => {
      if (c === client) this.client = undefined;
    });
    void client.end().catch(() => undefined);
  }
}
