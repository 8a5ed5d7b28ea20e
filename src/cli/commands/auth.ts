import { join } from 'node:path';
import type { CAC } from 'cac';
import { CarteError } from '../../errors.js';
import {
  loginCommand,
  rotateSecretKey,
  signInToServer,
  signOutOfServer,
  upstreamAuthStatus,
  type UpstreamAuthStatus,
} from '../../gateway/index.js';
import type { ActionHelps } from '../shared/action-help.js';
import { openApp, type App, type GlobalFlags } from '../shared/app.js';
import { parseDurationFlag } from '../shared/flags.js';
import { formatTable, note, out, outJson } from '../shared/output.js';
import { LOGIN_TIMEOUT_MS, openSignInPage } from '../shared/sign-in.js';

interface AuthFlags extends GlobalFlags {
  browser?: boolean;
  timeout?: string;
  json?: boolean;
}

/** The actions of `carte auth` and what `carte auth ACTION --help` prints. */
export const AUTH_ACTIONS: ActionHelps = {
  login: {
    usage: '<id> [--no-browser] [--timeout <duration>]',
    summary:
      'Sign in to a remote server: opens the authorization page ($BROWSER, else the system opener) and waits for it to come back to 127.0.0.1.',
    options: ['browser', 'timeout'],
  },
  status: {
    usage: '[<id>] [--json]',
    summary:
      "Each remote server's sign-in: signed in (scopes, expiry), needs a sign-in, none needed, or per-user (how many have linked); never a token.",
    options: ['json'],
  },
  logout: {
    usage: '<id>',
    summary: "Forget a server's sign-in, revoking its tokens first where the server offers revocation.",
    options: [],
  },
  'rotate-key': {
    usage: '',
    summary:
      'Seal every sign-in again under a new secret key: a new secret.key (the old kept as secret.key.previous until done), or, with CARTE_SECRET_KEY set, that key (the old one in CARTE_SECRET_KEY_PREVIOUS). Run it again if it was interrupted.',
    options: [],
  },
};

/** `carte auth login|status|logout`: sign-ins to remote upstreams (docs/upstream-auth.md). */
export function registerAuth(cli: CAC): void {
  cli
    .command(
      'auth <action> [id]',
      'login ID: sign in to a remote server; status: sign-ins; logout ID; rotate-key',
    )
    .option('--no-browser', 'login: print the URL to open instead of opening a browser')
    .option('--timeout <duration>', 'login: how long to wait for the sign-in (default: 5m)')
    .option('--json', 'status: print JSON')
    .action(async (action: string, id: string | undefined, flags: AuthFlags) => {
      if (!Object.hasOwn(AUTH_ACTIONS, action))
        throw new CarteError(
          'bad_input',
          `unknown auth action ${JSON.stringify(action)}; use login, status, logout or rotate-key`,
        );
      if (action !== 'status' && action !== 'rotate-key' && id === undefined)
        throw new CarteError(
          'bad_input',
          `carte auth ${action} needs a server id; run "carte auth status" to see them`,
        );
      const timeoutMs = parseDurationFlag('--timeout', flags.timeout) ?? LOGIN_TIMEOUT_MS;
      const app = await openApp(flags);
      try {
        if (action === 'login') await login(app, String(id), flags.browser !== false, timeoutMs);
        else if (action === 'logout') await logout(app, String(id));
        else if (action === 'rotate-key') await rotateKey(app);
        else await status(app, id, flags.json === true);
      } finally {
        await app.close();
      }
    });
}

async function login(app: App, id: string, browser: boolean, timeoutMs: number): Promise<void> {
  const openUrl = openSignInPage(id, browser);
  const { signedIn, sync } = await signInToServer(app, id, { openUrl, timeoutMs });
  const scope = signedIn.scope ? ` (scopes: ${signedIn.scope})` : '';
  const expiry = signedIn.expiresAt
    ? `; the token expires ${new Date(signedIn.expiresAt).toISOString()}`
    : '';
  out(`signed in to "${id}"${scope}${expiry}${signedIn.refreshable ? ', refreshed as needed' : ''}`);
  if (sync?.status === 'success') out(`synced "${id}": ${sync.toolCount} tools`);
  else if (sync) note(`sync of "${id}" after the sign-in: ${sync.status}: ${sync.error ?? ''}`);
}

async function logout(app: App, id: string): Promise<void> {
  const { forgotten, revocation } = await signOutOfServer(app, id);
  if (!forgotten) return out(`no sign-in to "${id}" was stored`);
  const revoked =
    revocation === 'revoked'
      ? 'its tokens were revoked'
      : revocation === 'not_offered'
        ? 'the server offers no revocation'
        : `revoking failed (${revocation.failed})`;
  out(`signed out of "${id}": ${revoked}, and Carte forgot them; \`${loginCommand(id)}\` signs in again`);
}

async function rotateKey(app: App): Promise<void> {
  const r = await rotateSecretKey(
    app.store,
    {
      keyFile: join(app.dataDir, 'secret.key'),
      envKey: !!process.env.CARTE_SECRET_KEY,
      envPreviousKey: !!process.env.CARTE_SECRET_KEY_PREVIOUS,
    },
    {
      step: (text) => note(text),
      record: (id, i, n) => note(`[${i + 1}/${n}] ${id}`),
    },
  );
  const count = `re-sealed ${r.resealed} sign-in${r.resealed === 1 ? '' : 's'}`;
  const kept = r.total - r.resealed;
  const already = kept > 0 ? ` (${kept} already under the new key)` : '';
  out(
    r.mode === 'env'
      ? `${count} under CARTE_SECRET_KEY${already}; once every replica runs with it, remove CARTE_SECRET_KEY_PREVIOUS`
      : `${count} under the new secret.key${already}; the previous key is removed`,
  );
}

async function status(app: App, id: string | undefined, json: boolean): Promise<void> {
  const rows = await upstreamAuthStatus(app, id === undefined ? undefined : [id]);
  if (json) return outJson(rows);
  if (rows.length === 0) return out('no remote servers are configured');
  out(formatTable([['SERVER', 'SIGN-IN', 'SCOPES', 'EXPIRES'], ...rows.map(row)]));
}

function row(s: UpstreamAuthStatus): string[] {
  const state =
    s.state === 'needs_sign_in' || s.state === 'expired'
      ? `${s.state}: run \`${loginCommand(s.server)}\``
      : s.state === 'signed_in'
        ? `signed in${s.refreshable ? ' (refreshable)' : ''}`
        : s.state === 'per_user'
          ? `per-user: ${s.linked} linked`
          : 'none needed so far';
  return [s.server, state, s.scope ?? '-', s.expiresAt ?? '-'];
}
