// The store on SQLite (the embedded default): the synchronous better-sqlite3 repositories behind
// the async Store API. A transaction holds a gate: callers outside it wait until it ends, so none
// of their writes can land inside it (or be rolled back with it).
import { checkpointInBackground, openDatabase, type CheckpointTimer, type Db } from './sqlite.js';
import { ServersRepo } from './servers-repo.js';
import { ToolsRepo } from './tools-repo.js';
import { SnapshotsRepo } from './snapshots-repo.js';
import { VectorsRepo } from './vectors-repo.js';
import { ACTIVITY_DEFAULTS, ActivityRepo } from './activity-repo.js';
import { TokensRepo } from './tokens-repo.js';
import { ProposalsRepo } from './proposals-repo.js';
import { TrustRepo } from './trust-repo.js';
import { UpstreamAuthRepo } from './upstream-auth-repo.js';
import { secretBox } from './secret-box.js';
import { SqliteLeases } from './leases.js';
import { RatesRepo } from './rates-repo.js';
import type { Promised, Repositories, Store, StoreOptions } from './api.js';

/**
 * Opens the store file (created and migrated as needed), prunes expired activity rows, and sets
 * the `started` rows of processes found dead `interrupted` (leases.ts).
 */
export function openSqliteStore(path: string, options: StoreOptions = {}): Store {
  const opened = openDatabase(path);
  const db: Db = opened.db;
  let checkpoints: CheckpointTimer | undefined = opened.checkpoints;
  const leases = new SqliteLeases(db, path);
  const activity = new ActivityRepo(db, { ...ACTIVITY_DEFAULTS, ...options.activity }, leases);
  activity.pruneExpired();
  try {
    leases.sweep(options.now?.());
  } catch {
    // A read-only copy, or the write lock held past the busy timeout: the next start sweeps.
  }
  const sync = {
    servers: new ServersRepo(db),
    tools: new ToolsRepo(db),
    vectors: new VectorsRepo(db),
    snapshots: new SnapshotsRepo(db),
    activity,
    tokens: new TokensRepo(db),
    proposals: new ProposalsRepo(db),
    trust: new TrustRepo(db),
    upstreamAuth: new UpstreamAuthRepo(db, secretBox(options.secretKey)),
    rates: new RatesRepo(),
  };
  const gate = new Gate();
  const outside = repositories(sync, gate);
  const inside = repositories(sync, undefined);
  return {
    engine: 'sqlite',
    path,
    ...outside,
    transaction: async <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => {
      const release = await gate.close();
      db.exec('BEGIN IMMEDIATE');
      try {
        const value = await fn(inside);
        db.exec('COMMIT');
        return value;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      } finally {
        release();
      }
    },
    checkIntegrity: () => Promise.resolve(String(db.pragma('integrity_check', { simple: true }))),
    // A closed or broken handle throws: a rejection.
    ping: () => new Promise<void>((resolve) => resolve(void db.prepare('SELECT 1').get())),
    subscribe: () => () => undefined,
    // Every store of this process on the same file takes turns (two gateways in one test, say).
    exclusive: (name, fn) => EXCLUSIVE.run(`${path}\0${name}`, fn),
    checkpointInBackground: (onFailure) => {
      checkpoints = checkpointInBackground(path, db, checkpoints, onFailure);
    },
    close: async () => {
      await gate.passed();
      checkpoints?.stop();
      activity.flush(); // grouped audit writes still queued: no row is lost to a close
      leases.close(activity.inFlight());
      db.close();
    },
  };
}

type SyncRepositories = { [K in keyof Repositories]: object };

function repositories(sync: SyncRepositories, gate: Gate | undefined): Repositories {
  const out: Record<string, unknown> = {};
  for (const [name, repo] of Object.entries(sync)) out[name] = promised(repo, gate);
  return out as unknown as Repositories;
}

/** `repo`'s methods answering with promises; behind `gate` when one is given. */
function promised<T extends object>(repo: T, gate: Gate | undefined): Promised<T> {
  const out: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(repo))) {
    const method = (repo as Record<string, unknown>)[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    // A synchronous throw in the executor becomes the promise's rejection.
    const run = (args: unknown[]): Promise<unknown> =>
      new Promise((resolve) => resolve(method.apply(repo, args) as unknown));
    out[name] = gate
      ? (...args: unknown[]) => (gate.isClosed() ? gate.passed().then(() => run(args)) : run(args))
      : (...args: unknown[]) => run(args);
  }
  return out as Promised<T>;
}

/** One transaction at a time; everyone else waits while it runs. */
class Gate {
  private current: Promise<void> | undefined;

  isClosed(): boolean {
    return this.current !== undefined;
  }

  /** Resolves once no transaction runs. */
  async passed(): Promise<void> {
    while (this.current) await this.current;
  }

  /** Waits for the gate, closes it, and returns what opens it again. */
  async close(): Promise<() => void> {
    await this.passed();
    let open!: () => void;
    this.current = new Promise((resolve) => (open = resolve));
    return () => {
      this.current = undefined;
      open();
    };
  }
}

/** Work queued by name: one at a time per name (`exclusive` within one process). */
export class NamedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const before = this.tails.get(name) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.tails.set(name, tail);
    void tail.then(() => {
      if (this.tails.get(name) === tail) this.tails.delete(name);
    });
    return run;
  }
}

/** The `exclusive` queue of every SQLite store in this process, by file and name. */
const EXCLUSIVE = new NamedQueue();
