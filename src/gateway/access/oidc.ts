// Access tokens from the team's identity provider (issue 31; docs/security.md, "Team sign-in"):
// a JWT is checked locally with jose (signature against the provider's JWKS, issuer, audience,
// expiry and not-before with a small clock skew), then its claims name the Carte project and,
// through auth.oidc.scopeMap, Carte's scopes. Carte is the resource server only: it never sends
// the token anywhere, upstreams included.
import { jwtVerify, type JWTPayload } from 'jose';
import { CarteError, quote } from '../../errors.js';
import type { OidcConfig } from '../../config/index.js';
import { throttledWarn } from '../shared/throttled-warn.js';
import type { CallerContext } from './context.js';
import { refusal, type RefusalContext } from './oidc-errors.js';
import { ProviderKeys } from './oidc-keys.js';
import type { Scope } from './scopes.js';

/** A verifier of bearer JWTs: the seam resolveBearer calls (tokens.ts). */
export interface AccessTokenVerifier {
  /** The caller a JWT access token names, or `unauthorized` saying why (never the token). */
  verify(token: string, projects: Pick<ReadonlySet<string>, 'has'>): Promise<CallerContext>;
}

export interface OidcOptions {
  /** Seconds a token's exp, nbf and iat may be off by: the two clocks are never exactly equal. */
  clockSkewSeconds: number;
  /** An unknown `kid`, or a fetch that failed, fetches the keys again at most this often. */
  jwksCooldownMs: number;
  /**
   * While no cached key is trusted (none fetched yet, or older than jwksMaxStaleMs) every token is
   * refused, so a failed fetch is tried again after this long instead of jwksCooldownMs: how long
   * Carte may go on refusing once the provider is back. At most jwksCooldownMs.
   */
  jwksRetryMs: number;
  /** Keys older than this are fetched again before use. */
  jwksMaxAgeMs: number;
  /**
   * While the provider does not answer, keys fetched longer ago than this are no longer trusted
   * and every token is refused. Default: auth.oidc.maxKeyStalenessHours.
   */
  jwksMaxStaleMs: number;
  /** How long a fetch of the discovery document or the keys may take. */
  fetchTimeoutMs: number;
  /** The clock tokens' exp, nbf and iat are checked against (tests move it); the key cache runs on Date.now, as jose's does. */
  now: () => number;
  /** Told (at most once a minute) when the provider does not answer and the keys last fetched are used. */
  warn?: (message: string) => void;
}

/**
 * 30 s of skew; keys fetched again at most once a minute on an unknown kid or after a failure,
 * every 5 s after a failure while no key is trusted (12 requests a minute to a provider that is
 * down, against one); kept 10 minutes (jose's default).
 */
export const OIDC_DEFAULTS: Omit<OidcOptions, 'jwksMaxStaleMs'> = {
  clockSkewSeconds: 30,
  jwksCooldownMs: 60_000,
  jwksRetryMs: 5_000,
  jwksMaxAgeMs: 600_000,
  fetchTimeoutMs: 5_000,
  now: Date.now,
};

/**
 * Public-key algorithms only: a token signed with HMAC (HS256 with the provider's public key as the
 * secret: the algorithm-confusion attack) or not signed at all (`none`) is refused before any key is looked up.
 */
export const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** Three base64url parts: a JWS in compact form (a Carte token has no dot). */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/** Whether a bearer token is shaped as a JWT (and so goes to the verifier, when one is configured). */
export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

/** A verifier for the provider auth.oidc names. */
export function createOidcVerifier(
  config: OidcConfig,
  options: Partial<OidcOptions> = {},
): AccessTokenVerifier {
  const o = { ...OIDC_DEFAULTS, jwksMaxStaleMs: config.maxKeyStalenessHours * 3_600_000, ...options };
  // While the provider is down every request would say so: once a minute is enough.
  const warn = o.warn && throttledWarn({ debug() {}, info() {}, warn: o.warn, error() {} });
  const keys = new ProviderKeys({
    issuer: config.issuer,
    ...(config.jwksUrl === undefined ? {} : { jwksUrl: config.jwksUrl }),
    cooldownMs: o.jwksCooldownMs,
    retryMs: o.jwksRetryMs,
    maxAgeMs: o.jwksMaxAgeMs,
    maxStaleMs: o.jwksMaxStaleMs,
    timeoutMs: o.fetchTimeoutMs,
    ...(warn === undefined ? {} : { warn }),
  });
  return {
    async verify(token, projects) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys.getKey, {
          issuer: config.issuer,
          audience: config.audience,
          algorithms: [...ACCEPTED_ALGORITHMS],
          clockTolerance: o.clockSkewSeconds,
          currentDate: new Date(o.now()),
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (err) {
        const ctx: RefusalContext = {
          issuer: config.issuer,
          audience: config.audience,
          keysAt: keys.where,
          cooldownMs: o.jwksCooldownMs,
          algorithms: ACCEPTED_ALGORITHMS,
        };
        throw refusal(err, token, ctx);
      }
      return callerOf(payload, config, projects);
    },
  };
}

/** The caller a verified token's claims name. */
function callerOf(
  payload: JWTPayload,
  config: OidcConfig,
  projects: Pick<ReadonlySet<string>, 'has'>,
): CallerContext {
  const project = claimAt(payload, config.projectClaim);
  if (project === undefined)
    throw unauthorized(
      `the access token has no ${quote(config.projectClaim)} claim naming its Carte project (auth.oidc.projectClaim)`,
    );
  if (typeof project !== 'string')
    throw unauthorized(
      `the access token's ${quote(config.projectClaim)} claim is ${quote(project)}, not a project id`,
    );
  if (!projects.has(project))
    throw unauthorized(
      `the access token names project ${quote(project)}, which is not configured in this Carte`,
    );
  if (typeof payload.sub !== 'string' || payload.sub === '')
    throw unauthorized(`the access token's "sub" claim is ${quote(payload.sub)}, not a subject`);
  const scopes = scopesOf(payload, config);
  // RFC 9068 and Keycloak: client_id; OIDC and Entra ID v2: azp; Okta: cid.
  const client = [payload.azp, payload.client_id, payload.cid].find((c) => typeof c === 'string');
  return Object.freeze({
    projectId: project,
    scopes: Object.freeze(scopes),
    subject: payload.sub,
    ...(client === undefined ? {} : { client }),
  });
}

/** The Carte scopes scopeMap grants for the scopes claim's values, weakest first. */
function scopesOf(payload: JWTPayload, config: OidcConfig): Scope[] {
  const value = claimAt(payload, config.scopesClaim);
  if (value === undefined)
    throw unauthorized(
      `the access token has no ${quote(config.scopesClaim)} claim to grant Carte scopes (auth.oidc.scopesClaim)`,
    );
  const values =
    typeof value === 'string'
      ? value.split(/\s+/).filter(Boolean)
      : Array.isArray(value)
        ? value.filter((v): v is string => typeof v === 'string')
        : [];
  const granted = new Set<Scope>();
  for (const v of values)
    for (const s of Object.hasOwn(config.scopeMap, v) ? config.scopeMap[v]! : []) granted.add(s);
  if (granted.size === 0) {
    const mapped = Object.keys(config.scopeMap);
    throw unauthorized(
      `the access token's ${quote(config.scopesClaim)} claim (${quote(values.join(' '), 80)}) grants no Carte scope; auth.oidc.scopeMap maps ${mapped.length === 0 ? 'nothing yet' : mapped.map((k) => quote(k, 40)).join(', ')}`,
    );
  }
  return (['search', 'call', 'admin'] as const).filter((s) => granted.has(s));
}

/**
 * A claim by name, or by dotted path into objects (`realm_access.roles`). A claim whose own name
 * has dots (`https://example.com/project`) is found by that name first.
 */
export function claimAt(payload: JWTPayload, name: string): unknown {
  if (Object.hasOwn(payload, name)) return payload[name];
  let at: unknown = payload;
  for (const part of name.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

function unauthorized(message: string): CarteError {
  return new CarteError('unauthorized', message);
}
