import { quote } from '../../errors.js';
import { expandTemplate, type TemplateContext } from '../variables/interpolate.js';
import type { Problems } from '../problems/problems.js';
import type { StoreConfig } from '../schema/schema.js';

/** A PostgreSQL connection URL, as the store takes it. */
export const DATABASE_URL = /^postgres(ql)?:\/\/\S+$/i;

/**
 * `store.url` with its variables expanded, checked to be a PostgreSQL URL; undefined on an
 * error. The message quotes the URL as written: the expanded one may hold a password.
 */
export function resolveStore(
  store: StoreConfig,
  ctx: Omit<TemplateContext, 'server' | 'owner'>,
  out: Problems,
): StoreConfig | undefined {
  if (store.url === undefined) return store;
  const r = expandTemplate(store.url, { ...ctx, server: 'store', owner: 'store.url' });
  if (!r.ok) {
    out.error(['store', 'url'], r.message);
    return undefined;
  }
  if (!DATABASE_URL.test(r.value)) {
    out.error(['store', 'url'], `${quote(store.url)} is not a postgres:// or postgresql:// URL`);
    return undefined;
  }
  return { ...store, url: r.value };
}
