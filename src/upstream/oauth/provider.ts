// Carte's OAuthClientProvider (MCP authorization, 2025-06-18 and 2025-11-25): the SDK's `auth()`
// does discovery (RFC 9728, then RFC 8414 / OpenID), registration (RFC 7591), PKCE and the
// `resource` parameter; this class keeps what it learns in the server's vault (the store,
// encrypted), refreshes a token before it expires, refuses an authorization server without
// PKCE S256, and, outside `carte auth login`, stops where a person would have to sign in.
import { readFile } from 'node:fs/promises';
import {
  createPrivateKeyJwtAuth,
  OAuthError,
  refreshAuthorization,
  type AddClientAuthentication,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { CarteError } from '../../errors.js';
import { challengeOf } from './challenge.js';
import { SignInRequired } from './sign-in-needed.js';
import type { OAuthRecord, UpstreamOAuth } from './types.js';

/** A token this close to its expiry (ms) is refreshed before it is sent. */
export const REFRESH_MARGIN_MS = 60_000;
/** Token endpoint answers that mean the refresh token (or the client) is no good any more (RFC 6749, 5.2). */
const DEAD_GRANT = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client']);
/** A redirect URI for a connection that never redirects (only its presence matters to `auth()`). */
const NO_REDIRECT = 'http://127.0.0.1/callback';

/** What `carte auth login` adds: where the browser comes back, the state to check, how to open a URL. */
export interface Interaction {
  redirectUrl: string;
  state: string;
  open(url: URL): Promise<void>;
}

/** The OAuth client of one upstream, over its vault; interactive only during a sign-in. */
export class CarteOAuthProvider implements OAuthClientProvider {
  private record: OAuthRecord = {};
  private verifier: string | undefined;
  private refreshing: Promise<void> | undefined;
  /** The last 401's or 403's challenge on this connection. */
  private challenge: OAuthRecord['challenge'];
  /** private_key_jwt (RFC 7523): signs a client assertion into each token request. */
  addClientAuthentication?: AddClientAuthentication;

  private constructor(
    private readonly serverId: string,
    private readonly oauth: UpstreamOAuth,
    private readonly interaction: Interaction | undefined,
    private readonly now: () => number,
  ) {}

  /** A provider with the server's record loaded (the SDK reads some of it synchronously). */
  static async open(
    serverId: string,
    oauth: UpstreamOAuth,
    interaction?: Interaction,
    now: () => number = Date.now,
  ): Promise<CarteOAuthProvider> {
    const provider = new CarteOAuthProvider(serverId, oauth, interaction, now);
    provider.record = (await oauth.vault.load()) ?? {};
    const { privateKeyFile, clientId, signingAlgorithm } = oauth.settings;
    if (privateKeyFile) {
      const privateKey = await readPrivateKey(serverId, privateKeyFile);
      const id = clientId ?? '';
      const alg = signingAlgorithm ?? 'RS256';
      provider.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: id,
        subject: id,
        privateKey,
        alg,
      });
    }
    return provider;
  }

  /** Reads the vault again: a sign-in made or forgotten by another process is used from the next request. */
  async reload(): Promise<void> {
    this.record = (await this.oauth.vault.load()) ?? {};
  }

  /** Client ID Metadata Documents: `auth()` uses it as the client_id where the server advertises them. */
  get clientMetadataUrl(): string | undefined {
    return this.oauth.settings.clientMetadataUrl;
  }

  private get machine(): boolean {
    return this.oauth.settings.grant === 'client_credentials';
  }

  get redirectUrl(): string | undefined {
    if (this.machine) return undefined;
    return this.interaction?.redirectUrl ?? this.record.redirectUrl ?? NO_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { scope } = this.oauth.settings;
    const base = { client_name: 'Carte', ...(scope ? { scope } : {}) };
    if (this.machine) {
      return {
        ...base,
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: this.addClientAuthentication ? 'private_key_jwt' : 'client_secret_basic',
      };
    }
    return {
      ...base,
      redirect_uris: [this.redirectUrl!],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.interaction?.state ?? '';
  }

  /** Notes a 401's or 403's challenge (the transports' fetch and the plain path call it). */
  noteChallenge(wwwAuthenticate: string | null | undefined): void {
    if (!wwwAuthenticate) return;
    const { scope, resourceMetadataUrl } = challengeOf(401, wwwAuthenticate);
    this.challenge = {
      ...(scope ? { scope } : {}),
      ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
    };
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const { clientId, clientSecret } = this.oauth.settings;
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    const client = this.record.client;
    // A client registered for another loopback port cannot receive this sign-in: register again.
    const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    if (client && this.interaction && Array.isArray(uris) && !uris.includes(this.interaction.redirectUrl))
      return undefined;
    // Outside a sign-in, registering a client (DCR) would be a write on the authorization server
    // for nothing: without a person there is no code to use it for.
    if (!client && !this.interaction && !this.machine) throw await this.signInRequired(undefined);
    return client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    this.record = { ...this.record, client };
    await this.persist();
  }

  /**
   * The stored tokens. The transport's per-request read (no `ctx`) refreshes a token about to
   * expire first; `auth()`'s reads (with `ctx`) read the vault again, so a sign-in made by another
   * process (`carte auth login` while `carte serve` runs) is used.
   */
  async tokens(ctx?: { issuer: string }): Promise<StoredOAuthTokens | undefined> {
    if (ctx) this.record = (await this.oauth.vault.load()) ?? this.record;
    else if (this.expiresSoon()) await this.refreshOnce();
    return this.record.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const expiresIn = tokens.expires_in;
    const expiresAt = typeof expiresIn === 'number' ? this.now() + expiresIn * 1000 : undefined;
    const kept = tokens.refresh_token ?? this.record.tokens?.refresh_token;
    this.record = {
      ...this.record,
      challenge: undefined,
      tokens: { ...tokens, ...(kept ? { refresh_token: kept } : {}), ...(expiresAt ? { expiresAt } : {}) },
      ...(this.interaction ? { redirectUrl: this.interaction.redirectUrl } : {}),
    };
    await this.persist();
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.checkPkce();
    if (!this.interaction) throw await this.signInRequired(url.searchParams.get('scope') ?? undefined);
    await this.interaction.open(url);
  }

  /** The client_credentials grant's token request (machine to machine); the default flow otherwise. */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.machine) return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new CarteError('internal', 'internal error (a bug): no PKCE code verifier was saved');
    return this.verifier;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    this.record = { ...this.record, discovery };
    // A mere 401 outside a sign-in writes nothing: discovery is kept once there is a sign-in to keep.
    if (this.interaction || this.record.tokens || this.record.client) await this.persist();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery;
  }

  /**
   * A sign-in discovers afresh: the server may name another authorization server by now (SEP-2352;
   * the SDK then drops a client registered with the old one, and registers again). Its first leg
   * saves what it found, which the callback leg checks the answer against.
   */
  forgetDiscovery(): void {
    const { discovery: _old, ...rest } = this.record;
    this.record = rest;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    const { client, tokens, discovery, ...rest } = this.record;
    this.record =
      scope === 'all'
        ? {}
        : {
            ...rest,
            ...(scope !== 'client' && client ? { client } : {}),
            ...(scope !== 'tokens' && tokens ? { tokens } : {}),
            ...(scope !== 'discovery' && discovery ? { discovery } : {}),
          };
    await this.persist();
  }

  /**
   * Why a person must sign in: none yet, a step-up to `scope` (403 insufficient_scope), or an
   * expiry. What the server asked for is kept in the vault for the sign-in to ask for it.
   */
  private async signInRequired(asked: string | undefined): Promise<SignInRequired> {
    const scope = asked ?? this.challenge?.scope;
    const challenge = { ...this.challenge, ...(scope ? { scope } : {}) };
    if (JSON.stringify(challenge) !== JSON.stringify(this.record.challenge ?? {})) {
      this.record = { ...this.record, challenge };
      await this.persist().catch(() => undefined); // the sign-in then asks less precisely: no worse
    }
    const granted = this.record.tokens?.scope?.split(' ') ?? [];
    const more = scope?.split(' ').filter((s) => s && !granted.includes(s)) ?? [];
    const why = !this.record.tokens
      ? 'it answered HTTP 401 Unauthorized and Carte has no sign-in for it'
      : more.length > 0
        ? `it asks for the scope ${JSON.stringify(more.join(' '))}, which its sign-in does not grant`
        : 'its sign-in has expired and could not be refreshed';
    return new SignInRequired(why, scope);
  }

  /** PKCE S256 is mandatory (MCP authorization, "Authorization Code Protection"): refuse a server without it. */
  private checkPkce(): void {
    const metadata = this.record.discovery?.authorizationServerMetadata;
    // No metadata at all is the 2025-03-26 fallback to default endpoints: PKCE is still sent.
    if (!metadata) return;
    if (metadata.code_challenge_methods_supported?.includes('S256')) return;
    throw new CarteError(
      'upstream_error',
      `server "${this.serverId}"'s authorization server ${metadata.issuer} does not list PKCE S256 in code_challenge_methods_supported; Carte does not sign in without it`,
    );
  }

  private expiresSoon(): boolean {
    const t = this.record.tokens;
    return !!t?.refresh_token && t.expiresAt !== undefined && t.expiresAt - this.now() < REFRESH_MARGIN_MS;
  }

  /**
   * One refresh at a time in this process, and under the vault's lock across processes: the record
   * is read again once the lock is held, and a token another replica refreshed meanwhile is used as
   * it is. A refusal by the authorization server (a dead refresh token) forgets the tokens and
   * throws SignInRequired; a failure to reach it leaves the old token, whose 401 then runs `auth()`.
   */
  private async refreshOnce(): Promise<void> {
    this.refreshing ??= this.oauth.vault
      .exclusive(async () => {
        this.record = (await this.oauth.vault.load()) ?? this.record;
        if (this.expiresSoon()) await this.refresh();
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    await this.refreshing;
  }

  /**
   * Runs `fn` (an `auth()` after a 401) under the vault's lock unless another process replaced the
   * refused token meanwhile (read again once the lock is held); its refresh is audited.
   */
  async afterRefusal(refused: string | undefined, fn: () => Promise<void>): Promise<void> {
    await this.oauth.vault.exclusive(async () => {
      this.record = (await this.oauth.vault.load()) ?? this.record;
      const held = this.record.tokens?.access_token;
      if (held !== undefined && held !== refused) return;
      const refreshable = !!this.record.tokens?.refresh_token;
      try {
        await fn();
        if (refreshable) this.oauth.vault.note({ act: 'refresh', outcome: 'ok' });
      } catch (err) {
        if (refreshable) this.oauth.vault.note({ act: 'refresh', outcome: 'failed', why: reasonOf(err) });
        throw err;
      }
    });
  }

  private async refresh(): Promise<void> {
    const { discovery, tokens } = this.record;
    const client = await this.clientInformation();
    if (!discovery || !tokens?.refresh_token || !client) return;
    const resource = discovery.resourceMetadata?.resource;
    let fresh: StoredOAuthTokens;
    try {
      fresh = await refreshAuthorization(discovery.authorizationServerUrl, {
        ...(discovery.authorizationServerMetadata ? { metadata: discovery.authorizationServerMetadata } : {}),
        clientInformation: client,
        refreshToken: tokens.refresh_token,
        ...(resource ? { resource } : {}),
      });
    } catch (err) {
      this.oauth.vault.note({ act: 'refresh', outcome: 'failed', why: reasonOf(err) });
      // Unreachable, or a passing refusal: the old token is tried, and its 401 runs `auth()`.
      if (!(err instanceof OAuthError) || !DEAD_GRANT.has(err.code)) return;
      const { tokens: _dead, ...rest } = this.record;
      this.record = rest;
      await this.persist();
      throw new SignInRequired(`the authorization server refused to refresh its sign-in: ${err.code}`);
    }
    await this.saveTokens({ ...fresh, ...(tokens.issuer ? { issuer: tokens.issuer } : {}) });
    this.oauth.vault.note({ act: 'refresh', outcome: 'ok' });
  }

  private async persist(): Promise<void> {
    await this.oauth.vault.save(this.record);
  }
}

/** The PEM key of private_key_jwt; a missing or unreadable file is the operator's to fix. */
async function readPrivateKey(serverId: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new CarteError(
      'bad_input',
      `server "${serverId}"'s oauth.privateKeyFile ${JSON.stringify(file)} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); point it at a PKCS#8 PEM private key`,
    );
  }
}

/** Why a refresh failed, fit for an audit row: the OAuth error code, else the message's first line. */
function reasonOf(err: unknown): string {
  if (err instanceof OAuthError) return err.code;
  if (err instanceof SignInRequired) return err.why;
  return ((err as Error).message ?? String(err)).split('\n')[0]!.slice(0, 200);
}
