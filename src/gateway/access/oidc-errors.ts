// Why an identity provider's access token was refused, in one sentence that names the bad value
// (a claim, the algorithm, the key id) and never the token or any part of its signature.
import { decodeProtectedHeader, errors } from 'jose';
import { CarteError, quote } from '../../errors.js';
import { KeysTooStale, KeysUnavailable } from './oidc-keys.js';

/** What the messages name: the configured issuer and audience, and where the keys come from. */
export interface RefusalContext {
  issuer: string;
  audience: string;
  keysAt: string;
  cooldownMs: number;
  algorithms: readonly string[];
}

/** `unauthorized` for an error of jose's (or of the key source); anything else is rethrown as the bug it is. */
export function refusal(err: unknown, token: string, ctx: RefusalContext): CarteError {
  const message = messageFor(err, token, ctx);
  if (message === undefined) throw err;
  return new CarteError('unauthorized', message);
}

function messageFor(err: unknown, token: string, ctx: RefusalContext): string | undefined {
  if (err instanceof KeysUnavailable || err instanceof KeysTooStale)
    return `cannot check the access token: ${err.message}; no token passes until the provider answers`;
  if (err instanceof errors.JWTExpired)
    return `the access token expired at ${iso(err.payload.exp)}; sign in again`;
  if (err instanceof errors.JWTClaimValidationFailed) return claimMessage(err, ctx);
  if (err instanceof errors.JOSEAlgNotAllowed) {
    const alg = headerOf(token).alg;
    const accepted = `Carte accepts only the provider's public-key algorithms (${ctx.algorithms.join(', ')})`;
    return alg === 'none'
      ? `the access token is unsigned (alg "none"); ${accepted}`
      : `the access token is signed with ${quote(alg, 20)}; ${accepted}`;
  }
  if (err instanceof errors.JWKSNoMatchingKey)
    return `the provider's key set at ${ctx.keysAt} has no key ${kidOf(token)} for the access token, even fetched again (at most once every ${ctx.cooldownMs / 1000} s)`;
  if (err instanceof errors.JWKSMultipleMatchingKeys)
    return `the provider's key set at ${ctx.keysAt} has several keys that match the access token's header ${kidOf(token)}; the provider must name its keys`;
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return `the access token's signature does not verify with the provider's key ${kidOf(token)}`;
  if (err instanceof errors.JOSEError)
    return `the bearer token looks like a JWT but is not a valid access token: ${err.message}`;
  return undefined;
}

function claimMessage(err: errors.JWTClaimValidationFailed, ctx: RefusalContext): string {
  const { claim, reason, payload } = err;
  if (reason === 'missing') return `the access token has no ${quote(claim)} claim`;
  switch (claim) {
    case 'nbf':
      return `the access token is not valid before ${iso(payload.nbf)}; check the clocks of Carte and the provider`;
    case 'iat':
      return `the access token was issued in the future (${iso(payload.iat)}); check the clocks of Carte and the provider`;
    case 'iss':
      return `the access token was issued by ${quote(payload.iss)}, not by the configured issuer ${quote(ctx.issuer)}`;
    case 'aud':
      return `the access token is for ${quote(payload.aud)}, not for this Carte (${quote(ctx.audience)}); ask the provider for a token for ${ctx.audience}`;
    default:
      return `the access token's ${quote(claim)} claim is not valid (${reason})`;
  }
}

/** The token's header, or {} when it cannot be read (the caller has an error to report already). */
function headerOf(token: string): { alg?: unknown; kid?: unknown } {
  try {
    return decodeProtectedHeader(token);
  } catch {
    return {};
  }
}

function kidOf(token: string): string {
  const { kid } = headerOf(token);
  return kid === undefined ? '(the token names no kid)' : `kid ${quote(kid, 60)}`;
}

function iso(seconds: unknown): string {
  return typeof seconds === 'number' && Number.isFinite(seconds)
    ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')
    : quote(seconds);
}
