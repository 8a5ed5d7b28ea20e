// The identity provider's signing keys (issue 31): where they are (auth.oidc.jwksUrl, or the
// jwks_uri of the issuer's OpenID discovery document) and a cache of them. jose's remote key set
// keeps the keys, fetches them again once they are older than `maxAgeMs`, and on a token whose
// `kid` it does not hold fetches them again at most once per `cooldownMs` since the last fetch
// that worked. On top of it: a fetch that fails is not tried again for `cooldownMs` either (a
// provider that is down is not asked on every request), and meanwhile the keys last fetched keep
// working, but only until they are `maxStaleMs` old: past that, or with none fetched yet, no token
// passes, and the refusal says why. While no key is trusted every token is refused anyway, so the
// provider is asked sooner: at once by the first request after the keys went stale, then after
// each failure every `retryMs` (not `cooldownMs`), so a provider back from an outage is seen within
// seconds rather than a minute. Keys are also never used past `maxStaleMs` while the provider is up.
import { createLocalJWKSet, createRemoteJWKSet, errors, jwksCache, type JWSHeaderParameters } from 'jose';
import type { FlattenedJWSInput, JSONWebKeySet, KeyObject, CryptoKey } from 'jose';

/** Why no key can be had: the provider's keys could not be fetched and none are cached. */
export class KeysUnavailable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`cannot fetch the provider's keys from ${url}: ${reason}`);
  }
}

/** Why the cached keys are no longer used: the provider has not answered for longer than `maxStaleMs`. */
export class KeysTooStale extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
    /** When the keys were last fetched (unix epoch ms). */
    readonly fetchedAt: number,
    readonly maxStaleMs: number,
  ) {
    super(
      `the provider's keys at ${url} could not be refreshed since ${isoSecond(fetchedAt)} (${reason}); keys older than ${hoursOf(maxStaleMs)} (auth.oidc.maxKeyStalenessHours) are not trusted`,
    );
  }
}

export interface ProviderKeyOptions {
  issuer: string;
  /** Absent: the jwks_uri of `${issuer}/.well-known/openid-configuration`. */
  jwksUrl?: string;
  cooldownMs: number;
  /** While no key is trusted (none fetched, or all stale), a failed fetch is tried again after this long (at most cooldownMs). */
  retryMs: number;
  maxAgeMs: number;
  /** Cached keys this long after their fetch are no longer used while the provider does not answer. */
  maxStaleMs: number;
  timeoutMs: number;
  /** Told when the provider does not answer and cached keys are used instead. */
  warn?: (message: string) => void;
}

type Key = CryptoKey | KeyObject | Uint8Array;
type RemoteSet = ReturnType<typeof createRemoteJWKSet>;

/** The provider's keys as jose's `jwtVerify` asks for them. */
export class ProviderKeys {
  private remote: RemoteSet | undefined;
  private url: string | undefined;
  private failure: { at: number; reason: string } | undefined;
  /** jose writes each fetch's keys and time (`uat`, Date.now) here: the age of the cached keys. */
  private readonly fetched: { uat?: number } = {};

  constructor(private readonly o: ProviderKeyOptions) {
    this.url = o.jwksUrl;
  }

  /** Where the keys are fetched from, once known (for messages). */
  get where(): string {
    return this.url ?? discoveryUrl(this.o.issuer);
  }

  /** The key a token's header names; jose's errors for an unknown or ambiguous `kid`, KeysUnavailable when none can be had. */
  readonly getKey = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<Key> => {
    // Date.now, as jose's own cooldown and cache age are measured.
    if (this.failure !== undefined && this.waiting(this.failure.at, Date.now()))
      return this.cached(header, token, this.failure.reason);
    let remote: RemoteSet;
    try {
      remote = await this.open();
      const key = await remote(header, token);
      this.failure = undefined;
      return key;
    } catch (err) {
      if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys)
        throw err;
      const reason = describeFailure(err);
      this.failure = { at: Date.now(), reason };
      return this.cached(header, token, reason);
    }
  };

  /** Whether a fetch that failed at `failedAt` is too recent to try again now. */
  private waiting(failedAt: number, now: number): boolean {
    const fetchedAt = this.fetched.uat;
    const trustedUntil = fetchedAt === undefined ? -Infinity : fetchedAt + this.o.maxStaleMs;
    // Cached keys still serve: no hurry, the provider is asked again after the cooldown.
    if (now <= trustedUntil) return now - failedAt < this.o.cooldownMs;
    // No key is trusted and every token is refused until a fetch works. The failure was while
    // the keys still served: ask now. Otherwise retry sooner than the cooldown, not on every request.
    if (failedAt <= trustedUntil) return false;
    return now - failedAt < Math.min(this.o.retryMs, this.o.cooldownMs);
  }

  /** The keys last fetched, while the provider does not answer. */
  private async cached(header: JWSHeaderParameters, token: FlattenedJWSInput, reason: string): Promise<Key> {
    const jwks: JSONWebKeySet | undefined = this.remote?.jwks();
    const at = this.fetched.uat;
    if (jwks === undefined || at === undefined)
      throw new KeysUnavailable(this.where, `${reason}; no keys are cached`);
    if (Date.now() - at > this.o.maxStaleMs) {
      const stale = new KeysTooStale(this.where, reason, at, this.o.maxStaleMs);
      this.o.warn?.(`oidc: refusing every access token: ${stale.message}`);
      throw stale;
    }
    this.o.warn?.(
      `oidc: the provider's keys at ${this.where} cannot be fetched (${reason}): using the keys fetched at ${isoSecond(at)} until ${isoSecond(at + this.o.maxStaleMs)}`,
    );
    return createLocalJWKSet(jwks)(header, token);
  }

  private async open(): Promise<RemoteSet> {
    if (this.remote !== undefined) return this.remote;
    this.url ??= await discoverJwksUrl(this.o.issuer, this.o.timeoutMs);
    this.remote = createRemoteJWKSet(new URL(this.url), {
      cooldownDuration: this.o.cooldownMs,
      // Keys past the staleness limit are fetched again before use, however long maxAgeMs is.
      cacheMaxAge: Math.min(this.o.maxAgeMs, this.o.maxStaleMs),
      timeoutDuration: this.o.timeoutMs,
      [jwksCache]: this.fetched as Record<string, never>,
    });
    return this.remote;
  }
}

function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/** The jwks_uri of the issuer's discovery document (OpenID Connect Discovery 1.0, section 4), whose issuer must be ours. */
async function discoverJwksUrl(issuer: string, timeoutMs: number): Promise<string> {
  const url = discoveryUrl(issuer);
  const res = await fetch(url, {
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json' },
  });
  if (res.status !== 200) throw new Error(`${url} answered HTTP ${res.status}`);
  const doc = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  // Section 4.3: the document's issuer is the one asked for, or it is not this provider's.
  if (doc?.issuer !== issuer)
    throw new Error(`${url} names issuer ${JSON.stringify(doc?.issuer)}, not ${JSON.stringify(issuer)}`);
  const jwksUri = doc.jwks_uri;
  if (typeof jwksUri !== 'string' || !/^https?:\/\//.test(jwksUri))
    throw new Error(`${url} has no http(s) jwks_uri; set auth.oidc.jwksUrl`);
  return jwksUri;
}

/** A fetch failure in a few words (never a token: none is sent to the provider). */
function describeFailure(err: unknown): string {
  if (err instanceof errors.JWKSTimeout) return 'it did not answer in time';
  if (err instanceof Error) {
    const cause = (err as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
    return `${err.message}${code}`;
  }
  return String(err);
}

function isoSecond(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function hoursOf(ms: number): string {
  const h = ms / 3_600_000;
  return Number.isInteger(h) ? `${h} h` : `${ms} ms`;
}
