// Per-user upstream identities (issue 41, "Teams"; `oauth.identity: per-user`): each OIDC subject
// links their own account, and their calls run on a connection of their own, opened with their
// vault (server id + subject), so a call carries its caller's token and never another's. Kept
// apart from the shared pool (upstreams.ts), which ordinary servers use unchanged: one connection
// per (server, subject), closed after PER_USER_IDLE_MS unused, at most PER_USER_MAX_CONNECTIONS
// (the least recently used is closed first).
import { REDACTED } from '../../config/index.js';
import { CarteError, operatorMessage, toCarteError } from '../../errors.js';
import type { Store } from '../../store/index.js';
import {
  UpstreamPool,
  type Logger,
  type OAuthRecord,
  type UpstreamConnection,
} from '../../upstream/index.js';
import type { GatewayServer } from '../shared/types.js';

/** A subject's connection unused this long (ms) is closed: 5 minutes. */
export const PER_USER_IDLE_MS = 5 * 60_000;
/** At most this many per-user connections are open at once, across servers: 64. */
export const PER_USER_MAX_CONNECTIONS = 64;

export { isPerUser } from '../shared/types.js';

/** How to link one's own account, named by every per-user message. */
const HOW_TO_LINK =
  "call it from an MCP client that supports URL elicitation, signed in to Carte through the identity provider, and it asks you to sign in; or press Link my account on the Servers page of Carte's web menu (/#/servers)";

/**
 * A caller with no subject (a Carte token, the local user) on a per-user server: it has no account
 * of its own there, and never gets anyone else's. No `details.server`: no sign-in can fix it.
 */
export function noSubjectRefusal(serverId: string): CarteError {
  return new CarteError(
    'needs_sign_in',
    `server "${serverId}" has per-user sign-in: each caller uses their own account, so it needs a caller signed in to Carte through the identity provider (auth.oidc), not a Carte token or the local user`,
    { details: { identity: 'per-user' } },
  );
}

/**
 * Linking (or unlinking) from the REST API or the web menu by a caller with no subject (a Carte
 * token): there is no account of its own to link, and it may not touch anyone else's.
 */
export function noSubjectLinkRefusal(serverId: string): CarteError {
  return new CarteError(
    'denied',
    `server "${serverId}" has per-user sign-in: each person links their own account, which needs a caller signed in to Carte through the identity provider (auth.oidc), not a Carte token`,
    { details: { identity: 'per-user' } },
  );
}

/**
 * A resource, prompt, completion or subscription of a per-user server: each person's would be their
 * own, and one shared session of events cannot hold them apart, so none is relayed, for anyone.
 */
export function notRelayedRefusal(serverId: string): CarteError {
  return new CarteError(
    'bad_input',
    `server "${serverId}" has per-user sign-in: its resources, prompts and completions are not relayed (each person's are their own); only its tools are served`,
    { details: { identity: 'per-user' } },
  );
}

/** What to do when a per-user sign-in asked of a person was not finished in time. */
export function linkAgain(serverId: string): string {
  return `call a tool of server "${serverId}" again to be asked again, or press Link my account on the Servers page of Carte's web menu (/#/servers)`;
}

/** `carte auth login|logout` on a per-user server: the local user has no subject to link. */
export function localLinkRefusal(serverId: string): CarteError {
  return new CarteError(
    'bad_input',
    `server "${serverId}" has per-user sign-in: each person links their own account (${HOW_TO_LINK}); carte auth login and logout handle only shared sign-ins`,
  );
}

/**
 * The caller's own sign-in is missing, expired or refused: only theirs; the elicited sign-in can
 * fix it. `head` replaces the message's start (a lookup of a tool not listed yet).
 */
export function perUserSignInNeeded(serverId: string, err: unknown, head?: string): CarteError {
  const scope = err === undefined ? undefined : toCarteError(err).details?.scope;
  return new CarteError(
    'needs_sign_in',
    `${head ?? `server "${serverId}" needs you to sign in with your own account`} (it has per-user sign-in); ${HOW_TO_LINK}`,
    {
      ...(err === undefined ? {} : { cause: err }),
      details: { server: serverId, identity: 'per-user', ...(typeof scope === 'string' ? { scope } : {}) },
    },
  );
}

/**
 * The subject whose sign-in lists a per-user server's tools when no caller is at hand (`carte sync`,
 * a start): the most recently saved link. The catalog is one for everyone (one visibility policy).
 */
export async function listingSubject(store: Store, serverId: string): Promise<string> {
  const linked = (await store.upstreamAuth.list()).filter((m) => m.serverId === serverId && m.subject);
  const latest = linked.sort((a, b) => b.updatedAt - a.updatedAt)[0];
  if (latest) return latest.subject;
  throw new CarteError(
    'needs_sign_in',
    `server "${serverId}" has per-user sign-in and nobody has linked their account yet; its tools are listed at the first link (${HOW_TO_LINK})`,
    { details: { identity: 'per-user' } },
  );
}

/**
 * A per-user server's listing failed with `subject`'s sign-in (none: a shared one, kept as it is): the error, with that person's tokens
 * cut from its text (an upstream may echo the token it got), since the server's last error is read
 * by others (`carte servers`, an admin's Servers page). The cause, which holds the original, goes.
 */
export async function withoutTokensOf(
  store: Store,
  whose: { serverId: string; subject: string | undefined },
  err: unknown,
): Promise<unknown> {
  if (whose.subject === undefined) return err;
  const record = (await store.upstreamAuth.get(whose.serverId, whose.subject))?.record as
    OAuthRecord | undefined;
  const secrets = [record?.tokens?.access_token, record?.tokens?.refresh_token].filter(
    (t): t is string => typeof t === 'string' && t.length > 0,
  );
  const cut = (text: string) => secrets.reduce((t, s) => t.split(s).join(REDACTED), text);
  if (!(err instanceof Error) || !secrets.some((s) => `${err.message}${operatorMessage(err)}`.includes(s)))
    return err;
  if (!(err instanceof CarteError)) return new Error(cut(err.message));
  return new CarteError(err.code, cut(err.message), {
    ...(err.details ? { details: err.details } : {}),
    operatorMessage: cut(err.operatorMessage),
  });
}

/** Opens (or finds) the subject's connection to the server in `pool`, with the subject's vault. */
export type OpenPerUser = (
  server: GatewayServer,
  subject: string,
  pool: UpstreamPool,
) => Promise<UpstreamConnection>;

interface Entry {
  key: string;
  serverId: string;
  subject: string;
  /** A pool of one: the subject's connection to the server. */
  pool: UpstreamPool;
  active: number;
  timer?: NodeJS.Timeout | undefined;
}

/** The per-user connections: by (server, subject), least recently used first. */
export class PerUserConnections {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly open: OpenPerUser,
    private readonly logger: Logger,
    private readonly limits = { idleMs: PER_USER_IDLE_MS, max: PER_USER_MAX_CONNECTIONS },
  ) {}

  /**
   * Runs `fn` on the caller's own connection to the server. No subject: refused; the subject's
   * missing or refused sign-in: `needs_sign_in` for them alone (perUserSignInNeeded).
   */
  async call<T>(
    server: GatewayServer,
    subject: string | undefined,
    fn: (conn: UpstreamConnection) => Promise<T>,
  ): Promise<T> {
    if (!subject) throw noSubjectRefusal(server.id);
    try {
      return await this.use(server, subject, fn);
    } catch (err) {
      if (toCarteError(err).code === 'needs_sign_in') throw perUserSignInNeeded(server.id, err);
      throw err;
    }
  }

  /** The subject's connection (discovery, a re-list); its idle timer runs from now. */
  connection(server: GatewayServer, subject: string): Promise<UpstreamConnection> {
    return this.use(server, subject, (conn) => Promise.resolve(conn));
  }

  /** The open per-user connections (a sign-in saved elsewhere is read again into each). */
  openConnections(): { serverId: string; subject: string; conn: UpstreamConnection }[] {
    return [...this.entries.values()].flatMap((e) =>
      e.pool.openConnections().map(({ conn }) => ({ serverId: e.serverId, subject: e.subject, conn })),
    );
  }

  /** How many per-user connections are kept (open or opening). */
  get size(): number {
    return this.entries.size;
  }

  /** Closes the server's per-user connections (one subject's, when given), or all of them. */
  async close(serverId?: string, subject?: string): Promise<void> {
    const doomed = [...this.entries.values()].filter(
      (e) =>
        serverId === undefined ||
        (e.serverId === serverId && (subject === undefined || e.subject === subject)),
    );
    await Promise.all(doomed.map((e) => this.drop(e)));
  }

  private async use<T>(
    server: GatewayServer,
    subject: string,
    fn: (conn: UpstreamConnection) => Promise<T>,
  ): Promise<T> {
    const entry = this.touch(server.id, subject);
    try {
      return await fn(await this.open(server, subject, entry.pool));
    } finally {
      entry.active--;
      if (entry.active === 0 && this.entries.get(entry.key) === entry) {
        entry.timer = setTimeout(() => {
          this.logger.info(
            `[${server.id}] ${subject}'s connection idle for ${this.limits.idleMs} ms: closing`,
          );
          void this.drop(entry);
        }, this.limits.idleMs);
        entry.timer.unref();
      }
    }
  }

  /** The entry, made the most recently used and held (active) until its use ends. */
  private touch(serverId: string, subject: string): Entry {
    const key = `${serverId}#${subject}`;
    const entry = this.entries.get(key) ?? { key, serverId, subject, pool: new UpstreamPool(), active: 0 };
    this.entries.delete(key);
    this.entries.set(key, entry);
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.active++;
    this.evict();
    return entry;
  }

  /** Closes the least recently used idle connections beyond the cap (those in use are kept). */
  private evict(): void {
    let over = this.entries.size - this.limits.max;
    for (const e of this.entries.values()) {
      if (over <= 0) return;
      if (e.active > 0) continue;
      this.logger.info(
        `[${e.serverId}] ${e.subject}'s connection closed: ${this.limits.max} per-user connections are open`,
      );
      void this.drop(e);
      over--;
    }
  }

  private async drop(entry: Entry): Promise<void> {
    clearTimeout(entry.timer);
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    await entry.pool.closeAll();
  }
}
