import type { CAC } from 'cac';
import {
  clientSpec,
  digest,
  planInstall,
  planUninstall,
  redact,
  writeAtomically,
  type ClientSpec,
  type InstallPlan,
} from '../../config/index.js';
import { CarteError, quote } from '../../errors.js';
import { loginCommand } from '../../gateway/index.js';
import { userPlace, type GlobalFlags } from '../shared/app.js';
import {
  installPaths,
  readClientFile,
  readOptional,
  readRecord,
  removeFiles,
  usedElsewhere,
  writeBackup,
  writeRecord,
  type InstallPaths,
} from '../shared/install-files.js';
import { signInsNeeded, type SignInNeeded } from '../shared/install-sign-ins.js';
import { count, out } from '../shared/output.js';
import { stdioClient } from './serve/serve.js';

interface InstallFlags extends GlobalFlags {
  client?: string;
  dryRun?: boolean;
  refresh?: boolean;
}

/** `carte install --client NAME [--dry-run]`: move a client's servers into Carte and point the client at Carte. */
export function registerInstall(cli: CAC): void {
  cli
    .command('install', "Move a client's MCP servers into Carte's config and give the client one carte entry")
    .option('--client <name>', 'claude-desktop, claude-code, cursor, vscode, windsurf or gemini-cli')
    .option('--dry-run', 'Print the change and write nothing')
    .option('--refresh', 'Rewrite a carte entry that starts Carte otherwise (after Node or Carte moved)')
    .action(async (flags: InstallFlags) => {
      const spec = clientSpec(flags.client);
      const paths = installPaths(spec, flags);
      const clientText = readClientFile(spec, paths.client);
      const carteBefore = readOptional(paths.carte);
      const carteText = carteBefore ?? '';
      const plan = planInstall({
        spec,
        clientPath: paths.client,
        clientText,
        carte: { path: paths.carte, text: carteText },
        command: stdioClient({ path: paths.carte, source: paths.source, dataDir: paths.dataDir }).snippet
          .mcpServers.carte,
        load: { env: userPlace().env, dataDir: paths.dataDir },
        refresh: flags.refresh === true,
      });
      if (plan.kind === 'already')
        return out(`${spec.name} already goes through Carte: ${plan.why}; nothing to do`);
      if (plan.kind === 'stale') return printStale(spec, paths, plan);
      if (plan.kind === 'refresh') return refreshEntry(spec, paths, clientText, plan, flags.dryRun === true);
      if (flags.dryRun) return printDryRun(spec, paths, plan);
      writeBackup(paths, clientText);
      // Literal secrets may have moved in: only this user may read the file then.
      writeAtomically(paths.carte, plan.carteText, plan.secrets.length > 0 ? 0o600 : undefined);
      writeRecord(paths.record, {
        version: 1,
        client: spec.id,
        file: paths.client,
        backup: paths.backup,
        installedDigest: digest(plan.clientText),
        carteConfig: paths.carte,
        added: plan.added.map((a) => ({ id: a.id, writtenId: a.writtenId, entryDigest: digest(a.entry) })),
        same: plan.same,
        ...(carteBefore === undefined ? { createdConfig: true } : {}),
      });
      writeAtomically(paths.client, plan.clientText);
      printInstalled(spec, paths, plan, await signInsNeeded(paths, plan.added));
    });
}

/** `carte uninstall --client NAME`: give the client its servers back. */
export function registerUninstall(cli: CAC): void {
  cli
    .command('uninstall', 'Give a client back the servers carte install moved, and remove its carte entry')
    .option('--client <name>', 'claude-desktop, claude-code, cursor, vscode, windsurf or gemini-cli')
    .action((flags: InstallFlags) => {
      const spec = clientSpec(flags.client);
      const paths = installPaths(spec, flags);
      const record = readRecord(spec, paths.record);
      const clientText = readClientFile(spec, record.file);
      const backupText = readOptional(record.backup);
      if (backupText === undefined)
        throw new CarteError(
          'bad_input',
          `the backup ${quote(record.backup, 200)} is gone, so ${spec.name}'s servers cannot be restored; its file is left as it is`,
        );
      const carte = { path: record.carteConfig, text: readOptional(record.carteConfig) ?? '' };
      const elsewhere = usedElsewhere(spec, paths.record, record.carteConfig);
      const plan = planUninstall({ spec, record, clientText, backupText, carte, usedElsewhere: elsewhere });
      writeAtomically(record.file, plan.clientText);
      // A config this install created, left with no server, goes: else it would hide the bundled demo.
      const dropConfig = record.createdConfig === true && elsewhere.size === 0 && isEmpty(plan.carteText);
      if (dropConfig) removeFiles(carte.path);
      else if (plan.carteText !== carte.text) writeAtomically(carte.path, plan.carteText);
      removeFiles(record.backup, paths.record);
      out(
        plan.exact
          ? `restored ${record.file} as it was before install (byte for byte)`
          : `restored the servers in ${record.file}; your other changes since install are kept`,
      );
      if (plan.removed.length > 0)
        out(`removed ${count(plan.removed.length, 'server')} from ${carte.path}: ${plan.removed.join(', ')}`);
      for (const k of plan.kept) out(`kept server "${k.id}" in ${carte.path}: ${k.why}`);
      if (dropConfig) out(`removed ${carte.path}: install created it, and no server is left in it`);
      out(`restart ${spec.name} to use its own servers again`);
    });
}

/** Carte's config holds nothing but an empty `servers` (YAML or JSON, no comment). */
function isEmpty(text: string): boolean {
  const bare = text.replace(/\s/g, '');
  return bare === 'servers:{}' || bare === '{"servers":{}}';
}

/** A carte entry that starts Carte otherwise: say how, and how to rewrite it; write nothing. */
function printStale(
  spec: ClientSpec,
  paths: InstallPaths,
  plan: Extract<InstallPlan, { kind: 'stale' }>,
): void {
  const line = (e: { command: unknown; args: unknown }) =>
    [e.command, ...(Array.isArray(e.args) ? (e.args as unknown[]) : [])]
      .map((p) => JSON.stringify(p))
      .join(' ');
  out(
    `${spec.name} already goes through Carte, but its "carte" entry in ${paths.client} starts it otherwise:`,
  );
  out(`  the entry: ${line(plan.current)}`);
  out(`  this Carte: ${line(plan.wanted)}`);
  out(`nothing written; to rewrite the entry, run this again with --refresh (--dry-run shows the change)`);
}

/** Rewrites the carte entry alone; an install record that matched the file keeps matching it. */
function refreshEntry(
  spec: ClientSpec,
  paths: InstallPaths,
  clientText: string,
  plan: Extract<InstallPlan, { kind: 'refresh' }>,
  dryRun: boolean,
): void {
  if (dryRun) {
    out(`dry run: nothing is written`);
    out(`--- ${paths.client}`);
    out(`+++ ${paths.client} (after --refresh)`);
    for (const [prefix, entry] of [
      ['-', plan.before],
      ['+', plan.after],
    ] as const)
      for (const l of JSON.stringify({ carte: redact(entry) }, null, 2).split('\n')) out(`${prefix} ${l}`);
    return;
  }
  const record = readOptional(paths.record) === undefined ? undefined : readRecord(spec, paths.record);
  writeAtomically(paths.client, plan.clientText);
  // Uninstall gives the backup back whole while the file is what install wrote: still so after this.
  if (record && record.installedDigest === digest(clientText))
    writeRecord(paths.record, { ...record, installedDigest: digest(plan.clientText) });
  out(`rewrote the "carte" entry in ${paths.client}; restart ${spec.name}`);
}

function printInstalled(
  spec: ClientSpec,
  paths: InstallPaths,
  plan: Extract<InstallPlan, { kind: 'install' }>,
  signIns: readonly SignInNeeded[],
): void {
  const ids = plan.added.map((a) => a.id);
  out(
    `moved ${count(ids.length, 'server')} from ${paths.client} into ${paths.carte}${ids.length ? `: ${ids.join(', ')}` : ''}`,
  );
  if (plan.same.length > 0) out(`already in ${paths.carte} as they are: ${plan.same.join(', ')}`);
  for (const w of plan.warnings) out(`warning: ${w} (not moved)`);
  if (plan.secrets.length > 0) {
    out(`these hold secrets written inline, moved as they were into ${paths.carte} (mode 0600):`);
    for (const s of plan.secrets) out(`  ${s}`);
    out('  better: write them as ${env:NAME} and set NAME where Carte runs');
  }
  if (signIns.length > 0) {
    out(
      `${count(signIns.length, 'server')} need${signIns.length === 1 ? 's' : ''} a sign-in before Carte can use it:`,
    );
    for (const s of signIns) out(`  ${s.id} (${s.why}): run \`${loginCommand(s.id)}\``);
  }
  out(`${paths.client} now starts Carte (backup: ${paths.backup}); restart ${spec.name}`);
  out(`undo with: carte uninstall --client ${spec.id}`);
}

/** The servers part of the client's file before and after (secrets redacted), and what Carte's config gets. */
function printDryRun(
  spec: ClientSpec,
  paths: InstallPaths,
  plan: Extract<InstallPlan, { kind: 'install' }>,
): void {
  const lines = (prefix: string, value: unknown) =>
    JSON.stringify({ [spec.section]: redact(value) }, null, 2)
      .split('\n')
      .map((l) => `${prefix} ${l}`);
  out(`dry run: nothing is written`);
  out(`--- ${paths.client}`);
  out(`+++ ${paths.client} (after install)`);
  for (const l of [...lines('-', plan.before), ...lines('+', plan.after)]) out(l);
  const ids = plan.added.map((a) => a.id);
  out(`${paths.carte} would get ${count(ids.length, 'server')}${ids.length ? `: ${ids.join(', ')}` : ''}`);
  for (const s of plan.secrets) out(`  secret written inline, would move as it is: ${s}`);
  for (const w of plan.warnings) out(`warning: ${w} (not moved)`);
}
