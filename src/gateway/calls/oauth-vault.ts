// Where an upstream's OAuth record lives: the store's `upstream_auth`, sealed (store/sqlite/secret-box.ts).
import type { Store } from '../../store/index.js';
import type { OAuthRecord, OAuthSettings, OAuthVault, UpstreamOAuth } from '../../upstream/index.js';
import type { GatewayServer } from '../shared/types.js';

/** The vault of one server over the store; its clear facts are what `carte auth status` shows. */
export function storeVault(store: Store, serverId: string): OAuthVault {
  return {
    load: async () => (await store.upstreamAuth.get(serverId))?.record as OAuthRecord | undefined,
    save: async (record) => {
      const t = record.tokens;
      await store.upstreamAuth.put(serverId, record, {
        expiresAt: t?.expiresAt ?? null,
        scope: t?.scope ?? null,
        refreshable: !!t?.refresh_token,
      });
    },
  };
}

const DEFAULT_SETTINGS: OAuthSettings = { grant: 'authorization_code' };

/** The OAuth client state of a remote server (undefined for stdio). */
export function upstreamOAuth(store: Store, server: GatewayServer): UpstreamOAuth | undefined {
  if (server.target.kind !== 'remote') return undefined;
  return { vault: storeVault(store, server.id), settings: server.target.oauth ?? DEFAULT_SETTINGS };
}
