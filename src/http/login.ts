// The one-time login link (like Jupyter's): `carte serve --http` prints `/#login=<code>`; the page
// trades the code once for an in-memory admin bearer token for the served project. Nothing of it
// is stored or logged: a restart forgets every code and token.
import { createHash, randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { CarteError } from '../errors.js';
import { TOKEN_PREFIX, type CallerContext } from '../gateway/index.js';
import { httpError } from './errors.js';
import type { HttpEnv } from './shared/types.js';

export const LOGIN_DEFAULTS = {
  /** How long a token from a login code works: 12 h, a working day with margin. */
  tokenTtlMs: 12 * 3_600_000,
  /** Scopes of that token: everything in the served project (the operator started the process). */
  scopes: ['admin'] as readonly string[],
};

/** What the page gets for a code. */
export interface LoginGrant {
  token: string;
  /** ISO 8601. */
  expiresAt: string;
  project: string;
  scopes: readonly string[];
}

interface Issued {
  caller: CallerContext;
  expiresAt: number;
}

/** One-time login codes and the tokens they were traded for, in memory. */
export class LoginCodes {
  private readonly codes = new Set<string>();
  private readonly tokens = new Map<string, Issued>();

  constructor(
    private readonly project: string,
    private readonly options: typeof LOGIN_DEFAULTS = LOGIN_DEFAULTS,
  ) {}

  /** A new single-use code (base64url, 128 random bits). */
  mint(): string {
    const code = randomBytes(16).toString('base64url');
    this.codes.add(sha256(code));
    return code;
  }

  /** Trades a code for a token; the code never works again. */
  redeem(code: unknown, now: number): LoginGrant {
    const key = typeof code === 'string' ? sha256(code) : '';
    if (!this.codes.delete(key))
      throw new CarteError(
        'unauthorized',
        'the login code is unknown or was already used; restart "carte serve --http" for a new link, or paste a token',
      );
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const caller = Object.freeze({
      projectId: this.project,
      scopes: Object.freeze([...this.options.scopes]),
      tokenId: `login_${randomBytes(4).toString('hex')}`,
    });
    const expiresAt = now + this.options.tokenTtlMs;
    this.tokens.set(sha256(token), { caller, expiresAt });
    return {
      token,
      expiresAt: new Date(expiresAt).toISOString(),
      project: this.project,
      scopes: caller.scopes,
    };
  }

  /** The caller of a token this process issued; undefined when it is not one of them. */
  resolve(token: string, now: number): CallerContext | undefined {
    return this.resolveHash(sha256(token), now);
  }

  /** `resolve` by the token's sha256 hex (the auth middleware hashes a bearer once). */
  resolveHash(key: string, now: number): CallerContext | undefined {
    const issued = this.tokens.get(key);
    if (issued === undefined) return undefined;
    if (now < issued.expiresAt) return issued.caller;
    this.tokens.delete(key);
    throw new CarteError(
      'unauthorized',
      `login token ${issued.caller.tokenId} expired; open a new login link (restart "carte serve --http")`,
    );
  }
}

/** `POST /login {code}` (mounted at /api/v1, before the auth middleware). */
export function loginRoutes(login: LoginCodes, now: () => number = Date.now): Hono<HttpEnv> {
  return new Hono<HttpEnv>().post('/login', async (c) => {
    try {
      const body: unknown = await c.req.json().catch(() => undefined);
      const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
      if (typeof code !== 'string' || code === '')
        throw new CarteError('bad_input', 'send {"code": "<the code after #login= in the link>"} as JSON');
      return c.json(login.redeem(code, now()));
    } catch (err) {
      return httpError(c, err);
    }
  });
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
