import type { CAC } from 'cac';
import { join } from 'node:path';
import { CarteError, quote } from '../../errors.js';
import { copyStore, isDatabaseUrl, withoutUrlPassword } from '../../gateway/index.js';
import type { ActionHelps } from '../shared/action-help.js';
import { loadConfig, type GlobalFlags } from '../shared/app.js';
import { count, formatTable, note, out } from '../shared/output.js';

/** `carte store copy` is the one action. */
export const STORE_ACTIONS: ActionHelps = {
  copy: {
    usage: '--to <postgres-url>',
    summary:
      "Copy this machine's SQLite store (the data dir's carte.db) into an empty PostgreSQL database, table by table in one transaction, and check the counts.",
    options: ['to'],
  },
};

interface StoreFlags extends GlobalFlags {
  to?: string;
}

/** `carte store copy --to postgres://...`: moving up from one machine to a team's database. */
export function registerStore(cli: CAC): void {
  cli
    .command('store <action>', 'copy: copy the SQLite store into an empty PostgreSQL database (--to URL)')
    .option('--to <url>', 'copy: the PostgreSQL database to copy into (postgres://user@host/db)')
    .action(async (action: string, flags: StoreFlags) => {
      if (!Object.hasOwn(STORE_ACTIONS, action))
        throw new CarteError('bad_input', `unknown store action "${action}"; the only action is "copy"`);
      const to = flags.to === undefined ? '' : String(flags.to);
      if (to === '')
        throw new CarteError(
          'bad_input',
          'carte store copy needs --to postgres://user@host:5432/db, the empty database to copy into',
        );
      if (!isDatabaseUrl(to))
        throw new CarteError(
          'bad_input',
          `--to ${quote(withoutUrlPassword(to))} is not a postgres:// or postgresql:// URL: carte store copy copies into an empty PostgreSQL database`,
        );
      const from = join(loadConfig(flags).dataDir, 'carte.db');
      note(`copying ${from}`);
      const copied = await copyStore(from, to, (t) => note(`  ${t.table}: ${count(t.rows, 'row')}`));
      const total = copied.reduce((n, t) => n + t.rows, 0);
      out(formatTable([['TABLE', 'ROWS'], ...copied.map((t) => [t.table, String(t.rows)])]));
      note(
        `copied ${count(total, 'row')}; every table's count checked. Point Carte at it with CARTE_DATABASE_URL or store.url.`,
      );
    });
}

/** What --to was given instead, for the error: only the scheme of a URL, whose user part may hold a password. */
