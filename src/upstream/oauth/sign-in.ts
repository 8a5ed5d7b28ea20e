// `carte auth login`: the authorization code flow with a loopback redirect (RFC 8252): a one-shot
// HTTP server on 127.0.0.1 receives the code, the state is checked, and `auth()` exchanges the code
// (PKCE, the `resource` parameter) and saves the tokens through the provider into the vault.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  auth,
  computeScopeUnion,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/client';
import { CarteError } from '../../errors.js';
import { CarteOAuthProvider } from './provider.js';
import { awaitAnswer, type SignInCallback, type SignInOutcome } from './callback-desk.js';
import type { OAuthRecord, UpstreamOAuth } from './types.js';

/** How a sign-in reaches the person, and how long it waits for them. */
export interface SignInOptions {
  /** Shows the authorization URL: opens a browser, or prints it. */
  openUrl(url: string): Promise<void>;
  timeoutMs: number;
  /** A step-up: the scope the server asked for beyond the sign-in's (403 insufficient_scope). */
  scope?: string;
  /** Where the browser comes back (the HTTP face's /oauth/callback); else a loopback listener of its own. */
  callback?: SignInCallback;
  /** What a timeout's message tells the person to do (default: run `carte auth login <id>` again). */
  again?: string;
}

/** What a finished sign-in holds (never the token itself). */
export interface SignedIn {
  scope?: string;
  expiresAt?: number;
  refreshable: boolean;
}

/** Signs in to the upstream at `url`: its vault holds the tokens afterwards. */
export async function signIn(
  serverId: string,
  url: string,
  oauth: UpstreamOAuth,
  options: SignInOptions,
): Promise<SignedIn> {
  const stored = await oauth.vault.load();
  const challenge = withStored(await probe(serverId, url, options.scope !== undefined, stored), stored);
  const granted = stored?.tokens?.scope;
  const scope = options.scope ? computeScopeUnion(granted, challenge.scope, options.scope) : challenge.scope;
  const callback = options.callback ?? (await listenForCallback());
  let outcome: SignInOutcome = { ok: false, message: 'the sign-in stopped' };
  try {
    const state = randomBytes(16).toString('base64url');
    const provider = await CarteOAuthProvider.open(serverId, oauth, {
      redirectUrl: callback.redirectUrl,
      state,
      open: (u) => options.openUrl(u.href),
    });
    provider.forgetDiscovery();
    // Waiting before the page opens: an automated browser can come back before auth() returns.
    callback.expect?.(state, serverId);
    const asked = { serverUrl: url, ...challenge, ...(scope ? { scope } : {}) };
    // A person asked to sign in: a fresh authorization, not a refresh of what is held.
    if ((await auth(provider, { ...asked, forceReauthorization: true })) === 'REDIRECT') {
      const { code, iss } = await callback.result(state, serverId, options.timeoutMs, options.again);
      await auth(provider, { ...asked, authorizationCode: code, ...(iss ? { iss } : {}) });
    }
    const done = summary(await oauth.vault.load());
    outcome = { ok: true };
    return done;
  } catch (err) {
    outcome = { ok: false, message: (err as Error).message };
    throw err;
  } finally {
    callback.close(outcome);
  }
}

/**
 * What the server's 401 challenge says (resource metadata URL, scope). A server that lets
 * `initialize` in may still guard its other methods: it signs in when it publishes protected-resource
 * metadata (RFC 9728), or when it asked for more scopes (`stepUp`); any other is refused.
 */
async function probe(
  serverId: string,
  url: string,
  stepUp: boolean,
  stored: OAuthRecord | undefined,
): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'carte', version: '0.1.0' },
    },
  });
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body,
  }).catch((err: unknown) => {
    throw new CarteError(
      'upstream_unavailable',
      `server "${serverId}" cannot be reached to sign in: ${(err as Error).message}`,
    );
  });
  await res.body?.cancel().catch(() => undefined);
  const asked = stepUp || stored?.challenge !== undefined;
  if (res.status !== 401 && res.status !== 403 && !asked && !(await protectedResource(url)))
    throw new CarteError(
      'bad_input',
      `server "${serverId}" answered HTTP ${res.status} without asking for a sign-in; there is nothing to sign in to`,
    );
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(res);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}

/** The probe's challenge, else what the server asked for when a connection last stopped. */
function withStored(
  probed: { resourceMetadataUrl?: URL; scope?: string },
  stored: OAuthRecord | undefined,
): { resourceMetadataUrl?: URL; scope?: string } {
  const last = stored?.challenge;
  const scope = probed.scope ?? last?.scope;
  const metadata =
    probed.resourceMetadataUrl ?? (last?.resourceMetadataUrl ? new URL(last.resourceMetadataUrl) : undefined);
  return { ...(metadata ? { resourceMetadataUrl: metadata } : {}), ...(scope ? { scope } : {}) };
}

/** Whether the server publishes protected-resource metadata at its well-known URLs. */
async function protectedResource(url: string): Promise<boolean> {
  return discoverOAuthProtectedResourceMetadata(url).then(
    () => true,
    () => false,
  );
}

/** A loopback server for the redirect, on a port the system picks (RFC 8252, section 7.3). */
async function listenForCallback(): Promise<SignInCallback> {
  let deliver: (query: URLSearchParams) => void = () => undefined;
  const arrived = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const ok = u.searchParams.has('code');
    res.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(
      ok
        ? 'Signed in. You can close this tab and go back to the terminal.\n'
        : 'The sign-in did not succeed; see the terminal.\n',
    );
    deliver(u.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    close: () => server.close(),
    result: (state, serverId, timeoutMs, again) => awaitAnswer(arrived, state, serverId, timeoutMs, again),
  };
}

function summary(record: OAuthRecord | undefined): SignedIn {
  const t = record?.tokens;
  return {
    ...(t?.scope ? { scope: t.scope } : {}),
    ...(t?.expiresAt ? { expiresAt: t.expiresAt } : {}),
    refreshable: !!t?.refresh_token,
  };
}
