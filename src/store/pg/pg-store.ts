import { CarteError } from '../../errors.js';
import type { Store, StoreOptions } from '../api.js';

/** Placeholder until the PostgreSQL repositories land. */
export function openPostgresStore(_url: string, _options: StoreOptions): Promise<Store> {
  return Promise.reject(new CarteError('store', 'the PostgreSQL store is not built yet'));
}
