// The demo catalog for bench:tokens: the bundled demo config (four reference servers, all
// dependencies of Carte, so this works offline) synced in process into a temp data dir, as
// `carte sync` does with no config file. The only place the token bench starts upstream servers;
// they are closed before anything is measured.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { demoConfig } from '../../src/config/index.js';
import {
  Gateway,
  LOCAL_CALLER,
  openStore,
  serversFromConfig,
  type GatewayServer,
} from '../../src/gateway/index.js';
import { QUIET } from '../core/logger.js';

/** A data dir whose store holds a catalog, and the server configs it was written with. */
export interface StoredCatalog {
  dataDir: string;
  servers: GatewayServer[];
}

/** Syncs the demo servers into `<dir>/data`; fails loudly when one of them cannot be listed. */
export async function syncDemo(dir: string): Promise<StoredCatalog> {
  const dataDir = join(dir, 'data');
  mkdirSync(join(dataDir, 'sandbox'), { recursive: true });
  const servers = serversFromConfig(demoConfig(dataDir));
  const store = await openStore(join(dataDir, 'carte.db'));
  const gateway = await Gateway.open({ servers, store, logger: QUIET });
  try {
    const failed = (await gateway.sync(LOCAL_CALLER)).filter((r) => r.status !== 'success');
    if (failed.length) {
      throw new Error(`demo sync failed: ${failed.map((r) => `${r.server}: ${r.error}`).join('; ')}`);
    }
  } finally {
    await gateway.close();
    await store.close();
  }
  return { dataDir, servers };
}
