// The shapes the OAuth client keeps per server, and the seam to where it keeps them (the store,
// encrypted: the gateway supplies the vault; this module never sees a database).
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/** Everything signed in to one upstream: all of it is kept encrypted (docs/upstream-auth.md). */
export interface OAuthRecord {
  /** The tokens, with `expiresAt` (epoch ms) worked out from `expires_in` when they were saved. */
  tokens?: StoredOAuthTokens & { expiresAt?: number };
  /** The client as registered (DCR) with the authorization server; absent for a configured client. */
  client?: StoredOAuthClientInformation;
  /** What discovery found (RFC 9728, RFC 8414): public, kept so a refresh needs no discovery. */
  discovery?: OAuthDiscoveryState;
  /** The loopback redirect URI the client was registered and signed in with. */
  redirectUrl?: string;
  /**
   * What the server last asked for when a connection stopped for want of a sign-in (its 401 or
   * 403 challenge), so that `carte auth login` asks for it even where `initialize` is let in.
   */
  challenge?: { scope?: string; resourceMetadataUrl?: string };
}

/** Where one server's OAuth record lives. `load` answers the latest saved, from any process. */
export interface OAuthVault {
  load(): Promise<OAuthRecord | undefined>;
  save(record: OAuthRecord): Promise<void>;
  /**
   * Runs `fn` while no other holder refreshes this record, in any process on the store (PostgreSQL:
   * an advisory lock), so two replicas never spend one refresh token twice.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Hears of each refresh and its outcome (the gateway writes an audit row); never a secret. */
  note(event: OAuthEvent): void;
}

/** A refresh as the audit log records it: `failed` carries the reason, never a token. */
export interface OAuthEvent {
  act: 'refresh';
  outcome: 'ok' | 'failed';
  why?: string;
}

/** The `oauth` keys of a remote server's config (docs/config.md). */
export interface OAuthSettings {
  /** `authorization_code` (a person signs in; the default) or `client_credentials` (machine to machine). */
  grant: 'authorization_code' | 'client_credentials';
  /** A client registered beforehand with the authorization server (else DCR). */
  clientId?: string;
  clientSecret?: string;
  /** Scopes to ask for, space-separated (else the challenge's, then `scopes_supported`). */
  scope?: string;
  /** An https URL used as the client_id where the server takes Client ID Metadata Documents. */
  clientMetadataUrl?: string;
  /** client_credentials with private_key_jwt (RFC 7523): the PEM key file and its algorithm. */
  privateKeyFile?: string;
  signingAlgorithm?: string;
  /** `shared` (one sign-in for the deployment; the default) or `per-user` (each OIDC subject's own). */
  identity?: 'shared' | 'per-user';
}

/** OAuth for one connection: the server's vault and settings. */
export interface UpstreamOAuth {
  vault: OAuthVault;
  settings: OAuthSettings;
}
