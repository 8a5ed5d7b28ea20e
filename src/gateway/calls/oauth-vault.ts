// Where an upstream's OAuth record lives: the store's `upstream_auth`, sealed (store/sqlite/secret-box.ts).
// A refresh runs under the store's lock for that record (PostgreSQL: an advisory lock), so replicas
// take turns, and each refresh writes an `auth` row to the audit log (never a token).
import type { Store } from '../../store/index.js';
import type {
  Logger,
  OAuthEvent,
  OAuthRecord,
  OAuthSettings,
  OAuthVault,
  UpstreamOAuth,
} from '../../upstream/index.js';
import type { GatewayServer } from '../shared/types.js';

/** The vault of one server over the store; its clear facts are what `carte auth status` shows. */
export function storeVault(store: Store, serverId: string, logger?: Logger): OAuthVault {
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
    exclusive: (fn) => store.exclusive(`oauth:${serverId}`, fn),
    note: (event) => void recordOAuthEvent(store, serverId, event, logger),
  };
}

/** The audit row of a refresh: kind `auth`, the server, `ok` or `needs_sign_in`, what happened. */
async function recordOAuthEvent(
  store: Store,
  serverId: string,
  event: OAuthEvent,
  logger: Logger | undefined,
): Promise<void> {
  const detail = `upstream token ${event.act}${event.why ? `: ${event.why}` : ''}`;
  await store.activity
    .record({
      kind: 'auth',
      server: serverId,
      outcome: event.outcome === 'ok' ? 'ok' : 'needs_sign_in',
      durationMs: 0,
      detail,
    })
    .catch((err: unknown) =>
      logger?.warn(`[${serverId}] cannot write a refresh's audit row: ${(err as Error).message}`),
    );
}

const DEFAULT_SETTINGS: OAuthSettings = { grant: 'authorization_code' };

/** The OAuth client state of a remote server (undefined for stdio). */
export function upstreamOAuth(
  store: Store,
  server: GatewayServer,
  logger?: Logger,
): UpstreamOAuth | undefined {
  if (server.target.kind !== 'remote') return undefined;
  return { vault: storeVault(store, server.id, logger), settings: server.target.oauth ?? DEFAULT_SETTINGS };
}
