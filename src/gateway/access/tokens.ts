import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closestKeys } from '../../catalog/index.js';
import { CarteError, quote } from '../../errors.js';
import type { Store } from '../../store/index.js';
import type { CallerContext } from './context.js';
import { looksLikeJwt, type AccessTokenVerifier } from './oidc.js';
import { requireScope, type Scope } from './scopes.js';

// Bearer tokens (issue 15, docs/security.md "Tokens"): the secret is shown once, only its sha256
// is stored, and a token resolves to the CallerContext of its project and scopes.

/** Token scopes, weakest first: each implies the ones before it (scopeAllows, scopes.ts). */
export const TOKEN_SCOPES = ['search', 'call', 'admin'] as const satisfies readonly Scope[];

/** The public prefix of every secret (so secret scanners and people can spot one). */
export const TOKEN_PREFIX = 'carte_';
/** 32 random bytes, base64url without padding: 43 characters. */
const SECRET_BYTES = 32;
const TOKEN_PATTERN = /^carte_[A-Za-z0-9_-]{43}$/;
/** Names are shown in `carte token list`: one short line of printable text. */
const NAME_PATTERN = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]{1,64}$/u;
const BEARER = /^Bearer +(\S+) *$/i;
const NEW_TOKEN = 'create one with "carte token create --project P"';

type TokenRow = Awaited<ReturnType<Store['tokens']['list']>>[number];

/** A token as anyone may see it: never the secret or its hash. Times are unix epoch ms. */
export type TokenInfo = Omit<TokenRow, 'hash'>;

/** A token just created: its info and the secret, which is never available again. */
export interface CreatedToken extends TokenInfo {
  token: string;
}

export interface CreateTokenInput {
  project: string;
  name?: string;
  /** From `now`; absent: the token never expires. */
  expiresInMs?: number;
  scopes: readonly string[];
  /** The configured projects; when given, the project must be one of them. */
  projects?: ReadonlySet<string>;
  /** Requests per minute (a whole number >= 1); absent: the project's default, or none. */
  ratePerMinute?: number;
}

/** Creates a token and stores its hash; the returned secret is the only copy. */
export async function createToken(store: Store, input: CreateTokenInput, now: number): Promise<CreatedToken> {
  const scopes = checkScopes(input.scopes);
  checkProject(input.project, input.projects);
  const name = input.name ?? null;
  if (name !== null && !NAME_PATTERN.test(name))
    throw new CarteError('bad_input', 'token name must be 1 to 64 printable characters on one line');
  const { expiresInMs } = input;
  if (expiresInMs !== undefined && !(Number.isSafeInteger(expiresInMs) && expiresInMs > 0))
    throw new CarteError(
      'bad_input',
      `token expiry must be a positive number of milliseconds, not ${quote(expiresInMs)}`,
    );
  const { ratePerMinute } = input;
  if (ratePerMinute !== undefined && !(Number.isSafeInteger(ratePerMinute) && ratePerMinute > 0))
    throw new CarteError(
      'bad_input',
      `a token's rate must be a whole number of requests per minute of at least 1, not ${quote(ratePerMinute)}`,
    );
  const token = TOKEN_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
  const row = {
    id: await newId(store),
    name,
    project: input.project,
    scopes,
    hash: hashToken(token),
    createdAt: now,
    expiresAt: expiresInMs === undefined ? null : now + expiresInMs,
    ratePerMinute: ratePerMinute ?? null,
  };
  await store.tokens.insert(row);
  const { hash: _hash, ...info } = row;
  return { ...info, lastUsedAt: null, revokedAt: null, token };
}

/** Every token without its hash, oldest first. */
export async function listTokens(store: Store): Promise<TokenInfo[]> {
  return (await store.tokens.list()).map(({ hash: _hash, ...info }) => info);
}

/**
 * Revokes a token by id, or by the secret itself (a leaked token whose id is not at hand).
 * Returns its info and whether this call revoked it (false: it already was).
 */
export async function revokeToken(
  store: Store,
  idOrToken: string,
  now: number,
): Promise<{ token: TokenInfo; revoked: boolean }> {
  let id = idOrToken;
  if (idOrToken.startsWith(TOKEN_PREFIX)) {
    const row = TOKEN_PATTERN.test(idOrToken) ? await findToken(store, idOrToken) : undefined;
    // Never echo the secret, not even in part.
    if (!row)
      throw new CarteError(
        'bad_input',
        'no stored token matches the token given; run "carte token list" for ids',
      );
    id = row.id;
  }
  const revoked = await store.tokens.revoke(id, now);
  const { hash: _hash, ...token } = (await store.tokens.get(id))!;
  return { token, revoked };
}

export interface ResolveOptions {
  /** Unix epoch ms. */
  now: number;
  /**
   * The projects configured now, as a set of ids or the gateway's projects map: a token whose
   * project was removed is refused.
   */
  projects: Pick<ReadonlySet<string>, 'has'>;
  /**
   * Tokens issued elsewhere (the HTTP face's login link), by the secret's sha256 hex: asked
   * before the store, so a bearer is hashed once. Undefined when it is not one of them.
   */
  issued?: (hash: string) => CallerContext | undefined;
  /** The identity provider's JWT access tokens (auth.oidc): a bearer shaped as a JWT goes to it. */
  jwt?: AccessTokenVerifier;
}

/**
 * The caller an `Authorization` header names. Throws `unauthorized` saying what is wrong and
 * what to do; no message ever contains the token or any part of it.
 */
export async function resolveBearer(
  store: Store,
  authorization: string | undefined,
  opts: ResolveOptions,
): Promise<CallerContext> {
  if (authorization === undefined || authorization.trim() === '')
    throw unauthorized(`missing Authorization header; send "Authorization: Bearer <token>" (${NEW_TOKEN})`);
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined)
    throw unauthorized('the Authorization header is not "Bearer <token>"; send the token after "Bearer "');
  // A JWT (three dot-separated parts) is the provider's; a Carte token has no dot (issue 31).
  if (opts.jwt !== undefined && looksLikeJwt(token)) return opts.jwt.verify(token, opts.projects);
  if (!TOKEN_PATTERN.test(token))
    throw unauthorized(
      `the bearer token is malformed: a Carte token is "${TOKEN_PREFIX}" and 43 more characters; send the whole token`,
    );
  const hash = hashToken(token);
  const issued = opts.issued?.(hash);
  if (issued !== undefined) return issued;
  // Cached for up to TOKEN_CACHE_TTL_MS (store/sqlite/tokens-repo.ts): revocation and expiry are checked below.
  const row = matching(await store.tokens.findByHashCached(hash, opts.now), hash);
  if (!row) throw unauthorized(`the bearer token is not known to this Carte; ${NEW_TOKEN}`);
  const who = `token ${row.id}`;
  if (row.revokedAt !== null)
    throw unauthorized(`${who} was revoked on ${isoMinute(row.revokedAt)}; ask for a new one`);
  if (row.expiresAt !== null && opts.now >= row.expiresAt)
    throw unauthorized(`${who} expired on ${isoMinute(row.expiresAt)}; ask for a new one`);
  if (!opts.projects.has(row.project))
    throw unauthorized(
      `${who} belongs to project ${quote(row.project)}, which is no longer configured; ask for a new one`,
    );
  // Not awaited: when a token was last used is not worth a request's wait (or its failure).
  store.tokens.touchLastUsed(row.id, opts.now).catch(() => undefined);
  return Object.freeze({
    projectId: row.project,
    scopes: Object.freeze([...row.scopes]),
    tokenId: row.id,
    ...(row.ratePerMinute === null ? {} : { ratePerMinute: row.ratePerMinute }),
  });
}

/** sha256 hex of a secret: what the store keeps. */
function hashToken(token: string): string {
  // The one-shot hash, no Hash object: 0.9-1.2 µs against 2.4-2.9 (a loop of 200,000 on this machine).
  return hash('sha256', token, 'hex');
}

/** The stored row for a secret (uncached: revoking by secret). */
async function findToken(store: Store, token: string): Promise<TokenRow | undefined> {
  const hash = hashToken(token);
  return matching(await store.tokens.findByHash(hash), hash);
}

/** The row when its hash is the one given; the hashes are compared in constant time once found. */
function matching(row: TokenRow | undefined, hash: string): TokenRow | undefined {
  if (!row) return undefined;
  const stored = Buffer.from(row.hash, 'hex');
  const given = Buffer.from(hash, 'hex');
  return stored.length === given.length && timingSafeEqual(stored, given) ? row : undefined;
}

/** Validated scopes, each once, in the order asked. */
function checkScopes(scopes: readonly string[]): Scope[] {
  if (scopes.length === 0)
    throw new CarteError('bad_input', `a token needs at least one scope: ${TOKEN_SCOPES.join(', ')}`);
  for (const s of scopes)
    if (!(TOKEN_SCOPES as readonly string[]).includes(s))
      throw new CarteError(
        'bad_input',
        `unknown scope ${quote(s, 40)}; scopes are ${TOKEN_SCOPES.join(', ')}`,
      );
  return [...new Set(scopes as readonly Scope[])];
}

function checkProject(project: string, projects: ReadonlySet<string> | undefined): void {
  if (projects === undefined || projects.has(project)) return;
  const near = closestKeys(project, [...projects], 1)[0];
  const hint =
    near === undefined
      ? `the configured projects are ${[...projects].map((p) => JSON.stringify(p)).join(', ')}`
      : `did you mean ${JSON.stringify(near)}?`;
  throw new CarteError('bad_input', `unknown project ${quote(project, 40)}; ${hint}`);
}

/** A fresh public id, `tok_` and 8 hex characters (retried in the rare case it is taken). */
async function newId(store: Store): Promise<string> {
  for (;;) {
    const id = `tok_${randomBytes(4).toString('hex')}`;
    if (!(await store.tokens.get(id))) return id;
  }
}

function unauthorized(message: string): CarteError {
  return new CarteError('unauthorized', message);
}

function isoMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The longest life of an admin token a caller makes (REST, the web menu): 90 days. Such a
 * token must expire; only the local operator (`carte token create`) makes longer-lived ones
 * (docs/security.md, "Tokens").
 */
export const MAX_CALLER_ADMIN_TOKEN_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * Creates a token of the caller's project (admin), whatever project the input names. An admin
 * token made this way must expire within MAX_CALLER_ADMIN_TOKEN_DAYS, so a leaked admin token
 * cannot mint a successor that outlives every revocation sweep.
 */
export async function createProjectToken(
  store: Store,
  caller: CallerContext,
  input: Omit<CreateTokenInput, 'project' | 'projects'>,
  now: number,
): Promise<CreatedToken> {
  requireScope(caller, 'admin', 'creating a token');
  if (input.scopes.includes('admin')) checkCallerAdminExpiry(input.expiresInMs);
  return createToken(store, { ...input, project: caller.projectId }, now);
}

function checkCallerAdminExpiry(expiresInMs: number | undefined): void {
  const max = MAX_CALLER_ADMIN_TOKEN_DAYS;
  if (expiresInMs === undefined)
    throw new CarteError(
      'bad_input',
      `an admin token made over the API must expire: give expiresInDays from 1 to ${max}, not none; "carte token create" on the server makes longer-lived ones`,
    );
  if (expiresInMs > max * DAY_MS)
    throw new CarteError(
      'bad_input',
      `an admin token made over the API must expire within ${max} days, not ${Math.ceil(expiresInMs / DAY_MS)}; "carte token create" on the server makes longer-lived ones`,
    );
}

/** The tokens of the caller's project, oldest first (admin): another project's are not shown. */
export async function listProjectTokens(store: Store, caller: CallerContext): Promise<TokenInfo[]> {
  requireScope(caller, 'admin', 'listing tokens');
  return (await listTokens(store)).filter((t) => t.project === caller.projectId);
}

/**
 * Revokes a token of the caller's project by id (admin). Another project's token answers as an
 * unknown id, with no did-you-mean: ids of other projects are never named.
 */
export async function revokeProjectToken(
  store: Store,
  caller: CallerContext,
  id: string,
  now: number,
): Promise<{ token: TokenInfo; revoked: boolean }> {
  requireScope(caller, 'admin', 'revoking a token');
  // A secret where the id goes (POST /tokens/carte_…/revoke) is neither echoed nor looked up.
  if (id.startsWith(TOKEN_PREFIX))
    throw new CarteError(
      'bad_input',
      'a token is revoked here by its id (tok_ and 8 characters, as listed), not by the token itself; nothing was revoked',
    );
  const row = await store.tokens.get(id);
  if (row?.project !== caller.projectId)
    throw new CarteError('bad_input', `unknown token id ${quote(id, 40)}`);
  return revokeToken(store, id, now);
}
