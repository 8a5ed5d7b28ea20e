import type { CAC } from 'cac';
import { streamAudit, type AuditQuery, type AuditRow } from '../../gateway/index.js';
import { CarteError, ERROR_CODES } from '../../errors.js';
import type { ActionHelps } from '../shared/action-help.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { parseDurationFlag } from '../shared/flags.js';
import { formatMs, formatTable, out, outJson, outLines } from '../shared/output.js';

/** Rows `carte audit` shows without `--limit` (export has no limit). */
export const AUDIT_LIST_LIMIT = 100;

/** `carte audit export` is the one action; `carte audit` alone lists. */
export const AUDIT_ACTIONS: ActionHelps = {
  export: {
    usage:
      '[--since <duration>] [--project <id>] [--tool <key>] [--subject <sub>] [--outcome <o>] [--limit <n>]',
    summary:
      'Print every matching audit row as one JSON object per line, oldest first (no limit unless --limit).',
    options: ['since', 'project', 'tool', 'subject', 'outcome', 'limit'],
    describe: { limit: 'At most this many rows (default: all)' },
  },
};

interface AuditFlags extends GlobalFlags {
  since?: string;
  project?: string;
  tool?: string;
  subject?: string;
  outcome?: string;
  limit?: number;
  json?: boolean;
}

/**
 * `carte audit [--since 1h] [--project P] [--tool K] [--subject S] [--outcome O] [--json]`: the newest audit rows as a table;
 * `carte audit export [...]`: every matching row as one JSON object per line, oldest first.
 */
export function registerAudit(cli: CAC): void {
  cli
    .command('audit [action]', 'Show the audit log (newest first); `audit export` prints it as JSONL')
    .option('--since <duration>', 'Only this recent activity: 30m, 24h, 7d, 2w (default: all kept)')
    .option('--project <id>', 'Only this project')
    .option('--tool <key>', 'Only calls and describes of this tool key')
    .option('--subject <sub>', "Only what an identity provider's token with this subject (sub claim) did")
    .option(
      '--outcome <outcome>',
      'Only rows with this outcome: ok, tool_error, started, interrupted or an error code (rate_limited...)',
    )
    .option('--limit <n>', `At most this many rows (default ${AUDIT_LIST_LIMIT}; export: all)`)
    .option('--json', 'Print JSON')
    .action(async (action: string | undefined, flags: AuditFlags) => {
      if (action !== undefined && !Object.hasOwn(AUDIT_ACTIONS, action))
        throw new CarteError('bad_input', `unknown audit action "${action}"; the only action is "export"`);
      const query = readQuery(flags, action === 'export');
      const app = await openApp(flags);
      try {
        if (action === 'export') {
          for await (const page of streamAudit(app.store.activity, query))
            await outLines(page.map((row) => JSON.stringify(row)));
          return;
        }
        const rows = await app.store.activity.audit(query);
        if (flags.json) return outJson(rows);
        out(rows.length === 0 ? 'no audit rows match' : formatAudit(rows));
      } finally {
        await app.close();
      }
    });
}

/** Outcomes a row can have besides the error codes. */
const OUTCOMES = ['ok', 'tool_error', 'started', 'interrupted'];

function readOutcome(outcome: string): string {
  if (OUTCOMES.includes(outcome) || Object.hasOwn(ERROR_CODES, outcome)) return outcome;
  throw new CarteError(
    'bad_input',
    `--outcome takes ok, tool_error, started, interrupted or an error code (denied, timeout...), not "${outcome}"`,
  );
}

function readQuery(flags: AuditFlags, exporting: boolean): AuditQuery {
  const range = parseDurationFlag('--since', flags.since);
  const limit = flags.limit === undefined ? (exporting ? undefined : AUDIT_LIST_LIMIT) : Number(flags.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new CarteError(
      'bad_input',
      `--limit takes a whole number of at least 1, not "${String(flags.limit)}"`,
    );
  return {
    ...(range === undefined ? {} : { since: Date.now() - range }),
    ...(flags.project === undefined ? {} : { project: String(flags.project) }),
    ...(flags.tool === undefined ? {} : { key: String(flags.tool) }),
    ...(flags.subject === undefined ? {} : { subject: String(flags.subject) }),
    ...(flags.outcome === undefined ? {} : { outcome: readOutcome(String(flags.outcome)) }),
    ...(limit === undefined ? {} : { limit }),
  };
}

/**
 * An aligned table: time, kind, project, who (the token id, or the provider's subject), key,
 * outcome, duration. Never arguments (the digest is enough to match rows).
 */
function formatAudit(rows: readonly AuditRow[]): string {
  const dash = (v: string | null) => v ?? '-';
  return formatTable([
    ['time (UTC)', 'kind', 'project', 'who', 'key', 'outcome', 'duration'],
    ...rows.map((r) => [
      r.at.slice(0, 19).replace('T', ' '),
      r.kind,
      dash(r.project),
      dash(r.tokenId ?? r.subject),
      dash(r.key),
      r.outcome,
      r.outcome === 'started' || r.outcome === 'interrupted' ? '-' : formatMs(r.durationMs),
    ]),
  ]);
}
