import { existsSync } from 'node:fs';
import type { CAC } from 'cac';
import { CarteError, toCarteError, type ErrorCode } from '../../../errors.js';
import {
  findDictionaries,
  LOCAL_CALLER,
  loginCommand,
  probeSandbox,
  type SyncReport,
} from '../../../gateway/index.js';
import { sandboxFindings } from './doctor-sandbox.js';
import { describeConfig, openApp, type App, type GlobalFlags } from '../../shared/app.js';
import { count, formatTable, out } from '../../shared/output.js';
import { clientFindings, readInstalls } from './doctor-clients.js';
import { dictionaryFindings, findCommand } from './doctor-dictionaries.js';
import { stdioClient } from '../serve/serve.js';
import { projectSearchFinding, searchFinding } from './doctor-search.js';

interface Finding {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
  code?: ErrorCode;
}

/** `carte doctor`: checks config, store and every enabled upstream; says what is wrong and how to fix it. */
export function registerDoctor(cli: CAC): void {
  cli
    .command('doctor', 'Check the config, the store and every upstream')
    .action(async (flags: GlobalFlags) => {
      let app: App;
      try {
        app = await openApp(flags, 'silent');
      } catch (err) {
        const e = toCarteError(err);
        report([
          {
            check: e.code === 'store' ? 'store' : 'config',
            ok: false,
            detail: e.operatorMessage,
            fix: fixFor(e.code, e.operatorMessage),
          },
        ]);
        throw new CarteError(e.code, 'doctor found 1 problem');
      }
      try {
        const findings = await examine(app);
        report(findings);
        const bad = findings.filter((f) => !f.ok);
        if (bad.length)
          throw new CarteError(
            bad[0]!.code ?? 'upstream_unavailable',
            `doctor found ${bad.length} problem${bad.length === 1 ? '' : 's'}`,
          );
      } finally {
        await app.close();
      }
    });
}

async function examine(app: App): Promise<Finding[]> {
  const findings: Finding[] = [];
  findings.push({
    check: 'config',
    ok: true,
    detail: describeConfig(app, count(app.warnings.length, 'warning')),
  });
  for (const w of app.warnings)
    findings.push({
      check: 'config',
      ok: true,
      detail: `warning: ${w.path ? `${w.path}: ` : ''}${w.message}`,
    });
  const store = await app.gateway.checkStore(LOCAL_CALLER);
  findings.push({
    check: 'store',
    ok: store.integrity === 'ok',
    detail: `${store.engine} ${store.path}: integrity ${store.integrity}`,
    ...(store.integrity === 'ok'
      ? {}
      : { fix: 'move the file aside and run `carte sync` to rebuild the catalog', code: 'store' as const }),
  });
  const disabled = app.gateway.listServers(LOCAL_CALLER).filter((s) => !s.enabled);
  for (const s of disabled)
    findings.push({ check: `server ${s.id}`, ok: true, detail: 'disabled in the config (not checked)' });
  const reports = await app.gateway.sync(LOCAL_CALLER);
  for (const r of reports) findings.push(serverFinding(r));
  findings.push(...sandboxFindings(app.gateway.listServers(LOCAL_CALLER), probeSandbox()));
  const searches = await app.gateway.prepareSearches(LOCAL_CALLER);
  findings.push(searchFinding(searches.top));
  for (const p of searches.projects) findings.push(projectSearchFinding(p));
  findings.push(
    ...dictionaryFindings(findDictionaries(), { ltPrint: findCommand('lt-print', process.env.PATH) }),
  );
  const wanted = stdioClient(app).snippet.mcpServers.carte;
  findings.push(...clientFindings(readInstalls(app.dataDir), wanted, existsSync));
  return findings;
}

function serverFinding(r: SyncReport): Finding {
  if (r.status === 'success') {
    const warn = r.warnings.length ? `; ${r.warnings.length} warnings: ${r.warnings[0] ?? ''}` : '';
    return {
      check: `server ${r.server}`,
      ok: true,
      detail: `${count(r.toolCount, 'tool')} in ${r.durationMs} ms${warn}`,
    };
  }
  const error = r.error ?? 'unknown error';
  if (r.status === 'needs_sign_in') {
    return {
      check: `server ${r.server}`,
      ok: false,
      detail: error,
      // The line `carte install` prints for a moved server that needs a sign-in.
      fix: `run \`${loginCommand(r.server)}\``,
      code: 'needs_sign_in',
    };
  }
  return {
    check: `server ${r.server}`,
    ok: false,
    detail: error,
    fix: serverFix(error),
    code: 'upstream_unavailable',
  };
}

function serverFix(error: string): string {
  if (/was not found|is not executable/.test(error))
    return 'install the command or give its full path in "command"';
  if (/exited before|closed the connection/.test(error))
    return 'run the command by hand to see why it stops (its stderr is quoted above); check its env';
  if (/within \d+ ms/.test(error)) return 'check the server starts on its own, or raise "discoveryTimeoutMs"';
  if (/cannot be reached/.test(error)) return 'check the URL and that the server is running';
  if (/HTTP 40[13]/.test(error)) return 'check the credentials in "headers" (use ${env:NAME} for secrets)';
  return 'run `carte sync --server <id> --log-level debug` to see the exchange';
}

function fixFor(code: ErrorCode, message: string): string {
  if (code === 'bad_config') return 'run `carte config check` and fix each line it prints';
  if (code === 'store' && /store at "postgres(ql)?:\/\//i.test(message))
    return 'check CARTE_DATABASE_URL (or store.url): PostgreSQL answers there, the database exists and the role may use it';
  if (code === 'store') return 'check the data dir is writable, or point --data-dir elsewhere';
  return 'see the message above';
}

function report(findings: Finding[]): void {
  const rows = findings.map((f) => [f.ok ? 'ok' : 'FAIL', f.check, f.detail]);
  out(formatTable(rows));
  const fixes = findings.filter((f) => !f.ok && f.fix);
  if (fixes.length) out(['', 'How to fix:', ...fixes.map((f) => `  ${f.check}: ${f.fix}`)].join('\n'));
}
