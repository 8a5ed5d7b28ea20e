// A database that does not answer is not a failed write: the replica stays up, serves what it
// holds in memory, and tells callers to retry (`store_unavailable`, HTTP 503) while the pool
// reconnects by itself. Which driver errors mean "the database is away".
import { CarteError } from '../../errors.js';

/** PostgreSQL's connection exceptions (class 08) and shutdowns (57P01-57P03). */
const AWAY_SQLSTATE = /^(08|57P0[123])/;
/** Node's socket errors for a server that is down or unreachable. */
const AWAY_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
/** pg's own messages for a connection lost or never made. */
const AWAY_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

export function isAway(err: unknown): boolean {
  if (err instanceof CarteError) return err.code === 'store_unavailable';
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (AWAY_SQLSTATE.test(code) || AWAY_ERRNO.has(code))) return true;
  return AWAY_MESSAGE.test(err.message);
}

/** `err` as `store_unavailable` when the database is away (the operator reads why); else unchanged. */
export function asUnavailable(err: unknown, printable: string): unknown {
  if (!isAway(err)) return err;
  return new CarteError('store_unavailable', 'the store does not answer; retry shortly', {
    operatorMessage: `the store at "${printable}" does not answer: ${(err as Error).message}`,
  });
}

/** `repo` whose every method turns an away database into `store_unavailable`. */
export function mappingAway<T extends object>(repo: T, printable: string): T {
  const names = new Set([
    ...Object.getOwnPropertyNames(Object.getPrototypeOf(repo)),
    ...Object.getOwnPropertyNames(repo),
  ]);
  for (const name of names) {
    const method = (repo as Record<string, unknown>)[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    Object.defineProperty(repo, name, {
      configurable: true,
      writable: true,
      value: (...args: unknown[]) => {
        try {
          const value: unknown = method.apply(repo, args);
          if (!(value instanceof Promise)) return value;
          return value.catch((err: unknown) => {
            throw asUnavailable(err, printable);
          });
        } catch (err) {
          throw asUnavailable(err, printable);
        }
      },
    });
  }
  return repo;
}
