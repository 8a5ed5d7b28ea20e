// Signing in to remote upstreams (issue 41) as the faces do it: `carte auth login|status|logout`.
// The flow itself is upstream/oauth's; this file finds the server, keeps its record in the store
// and makes the running gateway use the new sign-in at once (a fresh connection, a sync).
import { CarteError, toCarteError } from '../errors.js';
import type { Store, UpstreamAuthMeta } from '../store/index.js';
import {
  revokeTokens,
  signIn,
  type Revocation,
  type SignedIn,
  type SignInOptions,
} from '../upstream/index.js';
import { LOCAL_CALLER, type CallerContext } from './access/context.js';
import type { AuditEvent } from './trust/audit.js';
import { upstreamOAuth } from './calls/oauth-vault.js';
import { isPerUser, localLinkRefusal, noSubjectRefusal } from './calls/per-user.js';
import type { Gateway } from './gateway.js';
import type { SyncReport } from '../catalog/index.js';
import type { GatewayServer } from './shared/types.js';

/** What signing in reaches: the gateway (servers, connections, sync) and its store. */
export interface SignInSite {
  gateway: Gateway;
  store: Store;
}

/** One remote server's sign-in as `carte auth status` shows it: never a token, never whose. */
export interface UpstreamAuthStatus {
  server: string;
  /**
   * signed_in; expired (no refresh token left); needs_sign_in (it answered 401); not_needed (so
   * far); per_user (`oauth.identity: per-user`: each caller's own, counted in `linked`).
   */
  state: 'signed_in' | 'expired' | 'needs_sign_in' | 'not_needed' | 'per_user';
  identity: 'shared' | 'per-user';
  /** How many subjects have linked their own account (per-user servers; 0 for shared ones). */
  linked: number;
  grant: 'authorization_code' | 'client_credentials';
  scope: string | null;
  /** When the access token expires (ISO 8601), when the server said. */
  expiresAt: string | null;
  refreshable: boolean;
}

/**
 * Signs in to server `id`, then syncs it with the new sign-in; the audit log gets an `auth` row.
 * On a per-user server it links the caller's own account (their subject's record; the local user
 * has none and is refused) and syncs only when the server has no listed tools yet.
 */
export async function signInToServer(
  site: SignInSite,
  id: string,
  options: SignInOptions,
  caller: CallerContext = LOCAL_CALLER,
): Promise<{ signedIn: SignedIn; sync: SyncReport | undefined }> {
  const server = remoteServer(site.gateway, id);
  const subject = whoseSignIn(server, caller);
  const start = performance.now();
  let signedIn: SignedIn;
  try {
    signedIn = await signIn(id, server.target.url, upstreamOAuth(site.store, server, { subject })!, options);
  } catch (err) {
    auditAuth(site, caller, id, 'upstream sign-in', toCarteError(err).code, start);
    throw err;
  }
  auditAuth(
    site,
    caller,
    id,
    `upstream sign-in${signedIn.scope ? ` (scope ${signedIn.scope})` : ''}`,
    'ok',
    start,
  );
  if (subject !== undefined) return { signedIn, sync: await linked(site, server, subject) };
  await site.gateway.upstreams.close(id); // a connection opened before the sign-in has no token
  const [sync] = await site.gateway.sync(LOCAL_CALLER, { server: id });
  return { signedIn, sync };
}

/** After a subject linked: their connection reopens with the token; the first link lists the tools. */
async function linked(
  site: SignInSite,
  server: RemoteServer,
  subject: string,
): Promise<SyncReport | undefined> {
  await site.gateway.upstreams.perUser.close(server.id, subject);
  if ((await site.store.servers.get(server.id))?.status === 'success') return undefined;
  return site.gateway.upstreams.sync(server, subject);
}

/** Whose record a sign-in or sign-out touches: the caller's subject on a per-user server, else the shared one. */
function whoseSignIn(server: RemoteServer, caller: CallerContext): string | undefined {
  if (!isPerUser(server)) return undefined;
  if (caller.subject) return caller.subject;
  throw caller.tokenId === undefined ? localLinkRefusal(server.id) : noSubjectRefusal(server.id);
}

/** Forgets server `id`'s sign-in, revoking its tokens first where the server offers revocation. */
export async function signOutOfServer(
  site: SignInSite,
  id: string,
  caller: CallerContext = LOCAL_CALLER,
): Promise<{ forgotten: boolean; revocation: Revocation }> {
  const server = remoteServer(site.gateway, id);
  const subject = whoseSignIn(server, caller);
  const start = performance.now();
  const stored = await site.store.upstreamAuth.get(id, subject).catch(() => undefined);
  const settings = upstreamOAuth(site.store, server)!.settings;
  const revocation = stored
    ? await revokeTokens(stored.record as Parameters<typeof revokeTokens>[0], settings)
    : 'not_offered';
  const forgotten = await site.store.upstreamAuth.remove(id, subject);
  if (subject === undefined) await site.gateway.upstreams.close(id);
  else await site.gateway.upstreams.perUser.close(id, subject);
  const revoked = typeof revocation === 'string' ? revocation : `revocation failed: ${revocation.failed}`;
  if (forgotten) auditAuth(site, caller, id, `upstream sign-out (${revoked})`, 'ok', start);
  return { forgotten, revocation };
}

/** An `auth` row for a sign-in or a sign-out: who, which server, how it ended; never a token. */
function auditAuth(
  site: SignInSite,
  caller: CallerContext,
  server: string,
  detail: string,
  outcome: AuditEvent['outcome'],
  start: number,
): void {
  site.gateway.audit.event(caller, {
    kind: 'auth',
    server,
    detail,
    outcome,
    durationMs: performance.now() - start,
  });
}

/** Each remote server's sign-in state (`ids` to narrow), from the clear columns only (per-user: a count). */
export async function upstreamAuthStatus(
  site: SignInSite,
  ids?: readonly string[],
  now: number = Date.now(),
): Promise<UpstreamAuthStatus[]> {
  const servers = ids ? ids.map((id) => remoteServer(site.gateway, id)) : remoteServers(site.gateway);
  return statusesOf(site.gateway, servers, await site.store.upstreamAuth.list(), now);
}

function statusesOf(
  gateway: Gateway,
  servers: readonly RemoteServer[],
  all: readonly UpstreamAuthMeta[],
  now: number,
): UpstreamAuthStatus[] {
  const metas = new Map(all.filter((m) => !m.subject).map((m) => [m.serverId, m]));
  const linkedTo = (id: string) => all.filter((m) => m.serverId === id && m.subject).length;
  const rows = new Map(gateway.listServers(LOCAL_CALLER).map((s) => [s.id, s]));
  return servers.map((s) => {
    const meta = metas.get(s.id);
    const { expired, ...facts } = shownFacts(meta, now);
    const perUser = isPerUser(s);
    let state: UpstreamAuthStatus['state'] = meta ? (expired ? 'expired' : 'signed_in') : 'not_needed';
    if (rows.get(s.id)?.status === 'needs_sign_in') state = 'needs_sign_in';
    if (perUser) state = 'per_user';
    return {
      server: s.id,
      state,
      identity: perUser ? 'per-user' : 'shared',
      linked: perUser ? linkedTo(s.id) : 0,
      grant: s.target.oauth?.grant ?? 'authorization_code',
      ...facts,
    };
  });
}

/** A stored sign-in's clear facts as shown (expiry in ISO 8601), and whether it ran out for good. */
function shownFacts(meta: UpstreamAuthMeta | undefined, now: number) {
  return {
    expired: meta?.expiresAt != null && meta.expiresAt <= now && !meta.refreshable,
    scope: meta?.scope ?? null,
    expiresAt: meta?.expiresAt != null ? new Date(meta.expiresAt).toISOString() : null,
    refreshable: meta?.refreshable ?? false,
  };
}

/**
 * A caller's own link to a per-user server (never a token, never anyone else's): linked; expired
 * (its access token ran out and no refresh token is held); not_linked; no_subject (a caller not
 * signed in to Carte through the identity provider, e.g. a Carte token, has no account to link).
 */
export interface OwnLink {
  state: 'linked' | 'expired' | 'not_linked' | 'no_subject';
  scope: string | null;
  /** When the caller's access token expires (ISO 8601), when the server said. */
  expiresAt: string | null;
  refreshable: boolean;
}

/** A caller's own link to per-user server `id` among the stored sign-ins (clear columns only). */
function ownLinkIn(
  all: readonly UpstreamAuthMeta[],
  caller: CallerContext,
  id: string,
  now: number,
): OwnLink {
  const meta = caller.subject
    ? all.find((m) => m.serverId === id && m.subject === caller.subject)
    : undefined;
  const { expired, ...facts } = shownFacts(meta, now);
  const state = !caller.subject ? 'no_subject' : !meta ? 'not_linked' : expired ? 'expired' : 'linked';
  return { state, ...facts };
}

/**
 * The sign-in state of each remote server among `ids` (the others are left out), by id, with the
 * caller's own link on a per-user one: one read of the stored sign-ins for them all.
 */
export async function signInStates(
  site: SignInSite,
  ids: readonly string[],
  caller: CallerContext,
  now: number = Date.now(),
): Promise<Map<string, { auth: UpstreamAuthStatus; you?: OwnLink }>> {
  const remote = ids.map((id) => site.gateway.server(id)).filter(isRemote);
  if (remote.length === 0) return new Map();
  const all = await site.store.upstreamAuth.list();
  return new Map(
    statusesOf(site.gateway, remote, all, now).map((auth) => [
      auth.server,
      auth.state === 'per_user' ? { auth, you: ownLinkIn(all, caller, auth.server, now) } : { auth },
    ]),
  );
}

type RemoteServer = GatewayServer & { target: { kind: 'remote' } };

function remoteServer(gateway: Gateway, id: string): RemoteServer {
  const server = gateway.server(id);
  if (server.target.kind !== 'remote')
    throw new CarteError(
      'bad_input',
      `server "${id}" is started by Carte (stdio); only HTTP servers sign in`,
    );
  return server as RemoteServer;
}

function remoteServers(gateway: Gateway): RemoteServer[] {
  return gateway
    .listServers(LOCAL_CALLER)
    .map((s) => gateway.server(s.id))
    .filter(isRemote);
}

const isRemote = (s: GatewayServer): s is RemoteServer => s.target.kind === 'remote';
