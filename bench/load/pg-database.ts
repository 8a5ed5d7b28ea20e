// Scratch PostgreSQL databases for the load bench: one per arm, a random name, dropped at the end;
// and the CPU time of the whole PostgreSQL server (the postmaster and its children), from /proc.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { childrenOf, cpuTimeMs } from './proc-info.js';

/** The server the bench makes its databases on (`--pg-url`), as the store's tests do. */
export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface PgServer {
  /** A fresh empty database's URL; every one made is dropped by `close`. */
  createDatabase(label: string): Promise<string>;
  /**
   * User + system CPU ms so far of each PostgreSQL process that works for the bench: the postmaster,
   * its shared processes (WAL writer, checkpointer, ...) and the backends of the bench's databases;
   * the backends of other databases are left out. Take two and subtract with `cpuSpent`.
   */
  cpuMs(): Map<number, number>;
  close(): Promise<void>;
}

/**
 * Connects to the server at `url`; rejects with the URL (without password) when nothing answers.
 * `synchronousCommit: 'off'` sets it on each database made (an experiment: commits stop waiting
 * for the WAL flush, and a crash of PostgreSQL can lose the last few audit rows).
 */
export async function connectPg(
  url: string,
  opts: { synchronousCommit?: 'on' | 'off' } = {},
): Promise<PgServer> {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`no PostgreSQL answers at ${printable(url)}: ${(err as Error).message}`, { cause: err });
  }
  const backend = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const postmaster = parentOf(backend.rows[0]!.pid);
  const made: string[] = [];
  const prefix = `carte_bench_${randomBytes(4).toString('hex')}`;
  return {
    async createDatabase(label) {
      const name = `${prefix}_${label}`;
      await admin.query(`CREATE DATABASE ${name}`);
      made.push(name);
      if (opts.synchronousCommit === 'off')
        await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
      const u = new URL(url);
      u.pathname = `/${name}`;
      return u.toString();
    },
    cpuMs: () => {
      if (postmaster === undefined) return new Map();
      // A backend's title is "postgres: <user> <database> <client address> <state>".
      const ours = childrenOf(postmaster).filter(
        (c) => c.cmd.includes(prefix) || !/ \S+ \S+ (\d[\d.:]*\(\d+\)|\[local\])/.test(c.cmd),
      );
      return new Map([postmaster, ...ours.map((c) => c.pid)].map((p) => [p, cpuTimeMs(p)]));
    },
    async close() {
      try {
        for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * CPU ms between two `cpuMs` readings: a process that started in between counts whole, one that
 * ended in between is lost (its last reading is gone with it).
 */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) if (Number.isFinite(t)) ms += t - (before.get(pid) ?? 0);
  return before.size === 0 && after.size === 0 ? Number.NaN : ms;
}

/** The parent pid from /proc (the postmaster of a backend); undefined when PostgreSQL is on another host. */
function parentOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
    return ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function printable(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
