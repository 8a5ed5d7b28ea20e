import type { CAC } from 'cac';
import { CarteError } from '../../errors.js';
import {
  createTokenAudited,
  listTokens,
  projectsFromConfig,
  revokeTokenAudited,
  TOKEN_PREFIX,
  TOKEN_SCOPES,
  type TokenInfo,
  parseRate,
} from '../../gateway/index.js';
import type { ActionHelps } from '../shared/action-help.js';
import { openApp, type App, type GlobalFlags } from '../shared/app.js';
import { parseDurationFlag } from '../shared/flags.js';
import { formatTable, note, out, outJson } from '../shared/output.js';

interface TokenFlags extends GlobalFlags {
  project?: string;
  name?: string | number;
  expires?: string;
  scope?: string | string[];
  rate?: string;
  json?: boolean;
}

/** The actions of `carte token` and what `carte token ACTION --help` prints. */
export const TOKEN_ACTIONS: ActionHelps = {
  create: {
    usage: '--project <id> [--name <name>] [--expires <duration>] [--scope <scope>]... [--rate <n/m>]',
    summary: "Make a bearer token for one project's HTTP callers; the secret is printed once, on stdout.",
    options: ['project', 'name', 'expires', 'scope', 'rate'],
  },
  list: {
    usage: '[--json]',
    summary: 'Show every token with its project, scopes, rate, times and status, never its secret.',
    options: ['json'],
  },
  revoke: {
    usage: '<id>',
    summary: 'Revoke a token by its id (from carte token list); it stops working at once.',
    options: [],
  },
};

/** `carte token create|list|revoke`: bearer tokens for the HTTP face (docs/security.md, "Tokens"). */
export function registerToken(cli: CAC): void {
  cli
    .command(
      'token <action> [id]',
      'create: make a token (printed once); list: show tokens, never their secrets; revoke ID',
    )
    .option('--project <id>', 'create: the project the token may use (required)')
    .option('--name <name>', 'create: a label to recognise the token by')
    .option('--expires <duration>', 'create: lifetime: 30m, 24h, 7d, 2w (default: never expires)')
    .option('--scope <scope>', `create: ${TOKEN_SCOPES.join(', ')}; repeat for more (default: search)`)
    .option(
      '--rate <rate>',
      "create: requests per minute over HTTP, e.g. 600/m or 10/s (default: the project's rate)",
    )
    .option('--json', 'list: print JSON')
    .action(async (action: string, id: string | undefined, flags: TokenFlags) => {
      if (!Object.hasOwn(TOKEN_ACTIONS, action)) {
        // `carte token carte_…` (a secret where the action goes) must not echo the secret.
        const named = action.startsWith(TOKEN_PREFIX) ? '' : ` ${JSON.stringify(action)}`;
        throw new CarteError('bad_input', `unknown token action${named}; use create, list or revoke`);
      }
      if (action === 'revoke' && id === undefined)
        throw new CarteError(
          'bad_input',
          'carte token revoke needs a token id; run "carte token list" to see them',
        );
      const expiresInMs = parseDurationFlag('--expires', flags.expires);
      const ratePerMinute = flags.rate === undefined ? undefined : readRate(String(flags.rate));
      const app = await openApp(flags);
      try {
        if (action === 'create') await create(app, flags, { expiresInMs, ratePerMinute });
        else if (action === 'list') await list(app, flags.json === true);
        else await revoke(app, String(id));
      } finally {
        await app.close();
      }
    });
}

async function create(
  app: App,
  flags: TokenFlags,
  { expiresInMs, ratePerMinute }: { expiresInMs?: number | undefined; ratePerMinute?: number | undefined },
): Promise<void> {
  const projects = new Set(projectsFromConfig(app.config).keys());
  if (flags.project === undefined || String(flags.project) === '') {
    const known = [...projects].map((p) => JSON.stringify(p)).join(', ');
    throw new CarteError(
      'bad_input',
      `carte token create needs --project; the configured projects are ${known}`,
    );
  }
  const scopes = [flags.scope ?? 'search'].flat().flatMap((s) => String(s).split(','));
  const created = await createTokenAudited(
    tokenSite(app),
    {
      project: String(flags.project),
      scopes,
      projects,
      ...(flags.name === undefined ? {} : { name: String(flags.name) }),
      ...(expiresInMs === undefined ? {} : { expiresInMs }),
      ...(ratePerMinute === undefined ? {} : { ratePerMinute }),
    },
    Date.now(),
  );
  const label = created.name === null ? created.id : `${created.id} (${JSON.stringify(created.name)})`;
  const expiry = created.expiresAt === null ? 'never expires' : `expires ${formatTime(created.expiresAt)}`;
  const rate = created.ratePerMinute === null ? '' : `; at most ${created.ratePerMinute} requests a minute`;
  note(
    `created token ${label} for project "${created.project}", scopes ${created.scopes.join(', ')}; ${expiry}${rate}`,
  );
  note('the token is shown only this once, on stdout; Carte keeps only its hash');
  out(created.token);
}

async function list(app: App, json: boolean): Promise<void> {
  const now = Date.now();
  const tokens = await listTokens(app.store);
  // What the HTTP face applies to each under this config: its own rate, else its project's (or http.rate).
  const projectRate = (t: TokenInfo) => app.gateway.projectRate(t.project)?.perToken ?? null;
  if (json) return outJson(tokens.map((t) => toJson(t, { now, projectRate: projectRate(t) })));
  if (tokens.length === 0) return out('no tokens; create one with "carte token create --project P"');
  const rows = tokens.map((t) => [
    t.id,
    t.name ?? '-',
    t.project,
    t.scopes.join(','),
    rateText(t.ratePerMinute, projectRate(t)),
    formatTime(t.createdAt),
    t.expiresAt === null ? 'never' : formatTime(t.expiresAt),
    t.lastUsedAt === null ? 'never' : formatTime(t.lastUsedAt),
    statusText(t, now),
  ]);
  const head = ['ID', 'NAME', 'PROJECT', 'SCOPES', 'RATE', 'CREATED', 'EXPIRES', 'LAST USED', 'STATUS'];
  out(formatTable([head, ...rows]));
}

/** `600/m` (the token's own), `60/m (project)` (its project's or http.rate), or `-` (no limit). */
function rateText(own: number | null, project: number | null): string {
  if (own !== null) return `${own}/m`;
  return project === null ? '-' : `${project}/m (project)`;
}

async function revoke(app: App, id: string): Promise<void> {
  const { token, revoked } = await revokeTokenAudited(tokenSite(app), id, Date.now());
  out(
    revoked
      ? `revoked token ${token.id}`
      : `token ${token.id} was already revoked on ${formatTime(token.revokedAt ?? 0)}`,
  );
}

/** Making and revoking a token are audited as admin events by "the CLI" (docs/security.md, "Audit log"). */
function tokenSite(app: App) {
  return { store: app.store, audit: app.gateway.audit };
}

/**
 * `carte token list --json` (field names are stable: docs/cli.md); times are ISO or null.
 * `ratePerMinute` is the token's own; `effectiveRatePerMinute` what applies to it now (null: none).
 */
function toJson(t: TokenInfo, { now, projectRate }: { now: number; projectRate: number | null }) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: t.id,
    name: t.name,
    project: t.project,
    scopes: t.scopes,
    createdAt: iso(t.createdAt),
    expiresAt: iso(t.expiresAt),
    lastUsedAt: iso(t.lastUsedAt),
    revokedAt: iso(t.revokedAt),
    ratePerMinute: t.ratePerMinute,
    effectiveRatePerMinute: t.ratePerMinute ?? projectRate,
    status: status(t, now),
  };
}

function statusText(t: TokenInfo, now: number): string {
  return t.revokedAt === null ? status(t, now) : `revoked ${formatTime(t.revokedAt)}`;
}

function status(t: TokenInfo, now: number): 'active' | 'expired' | 'revoked' {
  if (t.revokedAt !== null) return 'revoked';
  return t.expiresAt !== null && now >= t.expiresAt ? 'expired' : 'active';
}

/** `2025-01-31 12:00 UTC`. */
function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `--rate 600/m` as requests per minute, or a bad_input error naming the flag. */
function readRate(text: string): number {
  try {
    return parseRate(text);
  } catch {
    throw new CarteError(
      'bad_input',
      `--rate takes requests per minute or second such as 600/m or 10/s, not "${text}"`,
    );
  }
}
