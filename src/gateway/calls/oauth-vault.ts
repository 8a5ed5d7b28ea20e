// Where an upstream's OAuth record lives: the store's `upstream_auth`, sealed (store/sqlite/secret-box.ts).
// A refresh runs under the store's lock for that record (PostgreSQL: an advisory lock), so replicas
// take turns, and each refresh writes an `auth` row to the audit log (never a token). A per-user
// server (`oauth.identity: per-user`) has one record per subject: a vault is one subject's.
import { SHARED_SUBJECT, type Store } from '../../store/index.js';
import type {
  Logger,
  OAuthEvent,
  OAuthRecord,
  OAuthSettings,
  OAuthVault,
  UpstreamOAuth,
} from '../../upstream/index.js';
import type { GatewayServer } from '../shared/types.js';

/** Whose record a vault holds, and where its refreshes' failures to audit are logged. */
export interface VaultOptions {
  /** An identity provider's subject (a per-user server); absent: the shared sign-in. */
  subject?: string | undefined;
  logger?: Logger | undefined;
}

/** The vault of one server's sign-in over the store; its clear facts are what `carte auth status` shows. */
export function storeVault(store: Store, serverId: string, opts: VaultOptions = {}): OAuthVault {
  const subject = opts.subject ?? SHARED_SUBJECT;
  return {
    load: async () => (await store.upstreamAuth.get(serverId, subject))?.record as OAuthRecord | undefined,
    save: async (record) => {
      const t = record.tokens;
      // A subject's row exists only while it holds tokens: it is their link (`carte auth status`
      // counts them), and a refused refresh or a mere 401 leaves none behind.
      if (subject !== SHARED_SUBJECT && !t) return void (await store.upstreamAuth.remove(serverId, subject));
      await store.upstreamAuth.put(serverId, record, {
        expiresAt: t?.expiresAt ?? null,
        scope: t?.scope ?? null,
        refreshable: !!t?.refresh_token,
        subject,
      });
    },
    exclusive: (fn) => store.exclusive(`oauth:${serverId}${subject ? `#${subject}` : ''}`, fn),
    note: (event) => void recordOAuthEvent(store, { serverId, subject }, event, opts.logger),
  };
}

/** The audit row of a refresh: kind `auth`, the server and subject, `ok` or `needs_sign_in`, what happened. */
async function recordOAuthEvent(
  store: Store,
  whose: { serverId: string; subject: string },
  event: OAuthEvent,
  logger: Logger | undefined,
): Promise<void> {
  const detail = `upstream token ${event.act}${event.why ? `: ${event.why}` : ''}`;
  await store.activity
    .record({
      kind: 'auth',
      server: whose.serverId,
      outcome: event.outcome === 'ok' ? 'ok' : 'needs_sign_in',
      durationMs: 0,
      detail,
      ...(whose.subject ? { subject: whose.subject } : {}),
    })
    .catch((err: unknown) =>
      logger?.warn(`[${whose.serverId}] cannot write a refresh's audit row: ${(err as Error).message}`),
    );
}

const DEFAULT_SETTINGS: OAuthSettings = { grant: 'authorization_code' };

/** The OAuth client state of a remote server (undefined for stdio), for the vault's subject. */
export function upstreamOAuth(
  store: Store,
  server: GatewayServer,
  opts: VaultOptions = {},
): UpstreamOAuth | undefined {
  if (server.target.kind !== 'remote') return undefined;
  return { vault: storeVault(store, server.id, opts), settings: server.target.oauth ?? DEFAULT_SETTINGS };
}
