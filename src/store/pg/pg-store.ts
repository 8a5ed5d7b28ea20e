// The store on PostgreSQL (a team's replicas sharing one database): the repositories of this
// folder over a pg Pool, migrated at open under an advisory lock.
import pg from 'pg';
import { CarteError } from '../../errors.js';
import { ACTIVITY_DEFAULTS, type ActivityOptions } from '../sqlite/activity-repo.js';
import type { Repositories, Store, StoreChange, StoreOptions } from '../sqlite/api.js';
import type { ToolChanges } from '../sqlite/types.js';
import { PG_TYPES, type Queryable } from './db.js';
import { migrate } from './migrations.js';
import { PgActivityRepo, type WriteCounter } from './activity-repo.js';
import { PgProposalsRepo } from './proposals-repo.js';
import { PgRatesRepo } from './rates-repo.js';
import { PgServersRepo } from './servers-repo.js';
import { PgSnapshotsRepo } from './snapshots-repo.js';
import { PgTokensRepo, TokenMemory } from './tokens-repo.js';
import { PgUpstreamAuthRepo } from './upstream-auth-repo.js';
import { secretBox, type SecretBox } from '../sqlite/secret-box.js';
import { PgToolsRepo } from './tools-repo.js';
import { PgTrustRepo } from './trust-repo.js';
import { PgVectorsRepo } from './vectors-repo.js';
import { parseStoreUrl } from './store-url.js';
import { announce, ChangeListener } from './changes.js';
import { AdvisoryLocks } from './locks.js';
import { asUnavailable, mappingAway } from './unavailable.js';
import { LEASE_DEFAULTS, PgLeases } from './leases.js';

/**
 * Connections per process when the URL has no `?pool=`: pg's own default. A gateway's statements
 * are short (an audit row, a token lookup), so ten serve many calls in flight, and a few replicas
 * at ten each stay well under PostgreSQL's default max_connections of 100.
 */
export const DEFAULT_POOL_SIZE = 10;

/**
 * How long to wait for a connection (ms), also for a free one from a busy pool: pg waits forever
 * by default, so an address that drops packets would hang the open instead of failing it.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens the store in the database at `url`, migrating it as needed; prunes expired activity rows
 * and sets the `started` rows of replicas whose lease expired `interrupted` (leases.ts).
 */
export async function openPostgresStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const { connectionString, printable, poolSize } = parseStoreUrl(url, DEFAULT_POOL_SIZE);
  const retention: ActivityOptions = { ...ACTIVITY_DEFAULTS, ...options.activity };
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types: PG_TYPES,
  });
  // An idle connection that breaks (a server restart) is reported here and dropped by the pool;
  // without a listener it would crash the process. The next statement fails, or reconnects.
  pool.on('error', () => undefined);
  const changes = new ChangeListener(connectionString, () => undefined);
  const leases = new PgLeases(pool, { ...LEASE_DEFAULTS, ...options.lease }, options.now);
  const counter: WriteCounter = { writes: 0, open: 0, lease: leases };
  const shared = {
    counter,
    tokens: new TokenMemory(),
    origin: changes.origin,
    // Replicas share the database, so they must share the key: a key file of one replica's own
    // would seal records the others cannot open. Only CARTE_SECRET_KEY seals on PostgreSQL.
    box: secretBox({
      ...(options.secretKey?.key ? { key: options.secretKey.key } : {}),
      ...(options.secretKey?.previousKey ? { previousKey: options.secretKey.previousKey } : {}),
    }),
  };
  const locks = new AdvisoryLocks(connectionString);
  let outside: Repositories;
  try {
    await migrate(pool, printable);
    outside = repositories(pool, retention, shared, printable);
    await outside.activity.pruneExpired();
    await leases.sweep().catch(() => undefined); // the next renewal, or the next start, sweeps
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw storeError(err, printable, connectionString);
  }
  // A failed renewal or sweep is retried at the next tick; the store's own errors show elsewhere.
  leases.start(() => undefined);
  return {
    engine: 'postgres',
    path: printable,
    ...outside,
    transaction: async <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => {
      const client = await pool.connect().catch((err: unknown) => {
        throw storeError(err, printable, connectionString);
      });
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const value = await fn(repositories(client, retention, shared, printable));
        await client.query('COMMIT');
        return value;
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      } finally {
        client.release(broken);
      }
    },
    checkIntegrity: async () => {
      await pool.query('SELECT 1');
      return 'ok';
    },
    ping: async () => {
      try {
        await pool.query('SELECT 1');
      } catch (err) {
        throw asUnavailable(err, printable);
      }
    },
    subscribe: (listener) =>
      changes.subscribe((change) => {
        if (change === 'tokens') shared.tokens.recent.clear(); // a revocation elsewhere counts now
        listener(change);
      }),
    exclusive: (name, fn) => locks.hold(name, fn),
    checkpointInBackground: () => undefined, // PostgreSQL checkpoints in its own processes
    close: async () => {
      await leases.close(counter.open ?? 0);
      await changes.close();
      await locks.close();
      await pool.end();
    },
  };
}

function repositories(
  q: Queryable,
  retention: ActivityOptions,
  shared: { counter: WriteCounter; tokens: TokenMemory; origin: string; box: SecretBox },
  printable: string,
): Repositories {
  const tell = (change: StoreChange) => () => announce(q, shared.origin, change);
  const catalog = tell('catalog');
  const away = <T extends object>(repo: T) => mappingAway(repo, printable);
  // Each catalog write announces only when it changed what replicas read: a sync of many servers
  // that finds nothing new wakes no replica (each change still reaches them at its commit).
  return {
    servers: away(new PgServersRepo(q, catalog)),
    tools: away(
      announcing(new PgToolsRepo(q), catalog, {
        applyChanges: ([c]) => {
          const { added, changed, removed } = c as ToolChanges;
          return added.length + changed.length + removed.length > 0; // not only last_seen_at
        },
        setCategories: () => true,
      }),
    ),
    vectors: away(new PgVectorsRepo(q, printable)),
    snapshots: away(new PgSnapshotsRepo(q)),
    activity: away(new PgActivityRepo(q, retention, shared.counter)),
    tokens: away(announcing(new PgTokensRepo(q, shared.tokens), tell('tokens'), { revoke: () => true })),
    proposals: away(new PgProposalsRepo(q)),
    trust: away(new PgTrustRepo(q, catalog)),
    upstreamAuth: away(new PgUpstreamAuthRepo(q, shared.box, tell('sign_ins'))),
    rates: away(new PgRatesRepo(q)),
  };
}

/**
 * `repo` whose methods named in `when` announce `then` after they succeed, when their test of
 * the arguments says the write changed something, so other replicas hear of it (inside a store
 * transaction the notification is delivered at its commit).
 */
function announcing<T extends object>(
  repo: T,
  then: () => Promise<void>,
  when: Partial<Record<keyof T & string, (args: unknown[]) => boolean>>,
): T {
  for (const [name, changed] of Object.entries(when) as [keyof T & string, (args: unknown[]) => boolean][]) {
    const method = repo[name] as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(repo, name, {
      configurable: true,
      writable: true,
      value: async (...args: unknown[]) => {
        const value = await method.apply(repo, args);
        if (changed(args)) await then();
        return value;
      },
    });
  }
  return repo;
}

/**
 * A failure to open as a store error naming the database without its password, with the
 * driver's reason (scrubbed of the password too, should a driver ever echo it). The driver's
 * error is not kept as the cause: what it carries is not ours to vouch for.
 */
function storeError(err: unknown, printable: string, connectionString: string): Error {
  if (err instanceof CarteError) return err;
  const password = passwordOf(connectionString);
  let reason = err instanceof Error ? err.message : String(err);
  if (password) reason = reason.split(password).join('***');
  return new CarteError('store', `cannot open the store at "${printable}": ${reason}`);
}

function passwordOf(connectionString: string): string {
  try {
    return decodeURIComponent(new URL(connectionString).password);
  } catch {
    return '';
  }
}
