import { CarteError } from '../../errors.js';

/** A store URL taken apart: what pg connects with, what may be printed, and the pool's size. */
export interface StoreUrl {
  /** The URL without Carte's own `pool` parameter (pg would take it for a setting of its own). */
  connectionString: string;
  /** The URL without any password (in the userinfo or as a `password` parameter): fit for messages and logs. */
  printable: string;
  poolSize: number;
}

/** Parses a `postgres://` URL; `?pool=N` sets the pool size (`defaultPoolSize` when absent). */
export function parseStoreUrl(url: string, defaultPoolSize: number): StoreUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // URL's own error carries the input, password and all: not a cause to keep.
    throw new CarteError(
      'store',
      `cannot open the store at "${withoutUrlPassword(url)}": it is not a valid URL`,
    );
  }
  const pool = parsed.searchParams.get('pool');
  parsed.searchParams.delete('pool');
  const connectionString = parsed.toString();
  parsed.password = '';
  for (const secret of ['password', 'sslpassword']) parsed.searchParams.delete(secret);
  const printable = parsed.toString();
  const poolSize = pool === null ? defaultPoolSize : Number(pool);
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new CarteError(
      'store',
      `the pool size in the store URL "${printable}" must be a whole number of at least 1, not ${JSON.stringify(pool)}`,
    );
  }
  return { connectionString, printable, poolSize };
}

/** Any URL, even one that does not parse, without what sits between `user:` and `@` nor a `password` parameter's value: fit to print. */
export function withoutUrlPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^/:@]*):[^@]*@/i, '$1@').replace(/([?&](ssl)?password=)[^&]*/gi, '$1***');
}
