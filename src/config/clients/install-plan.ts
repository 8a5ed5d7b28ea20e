import { createHash } from 'node:crypto';
import { CarteError, quote } from '../../errors.js';
import { mergeServersIntoText } from '../edit/merge-servers.js';
import { detectFormat } from '../formats/detect-format.js';
import { parseConfigText, type LoadOptions } from '../load/load.js';
import { parseText } from '../parse/parse-text.js';
import { isRecord, Problems } from '../problems/problems.js';
import { carteEntry, type ClientSpec } from './client-table.js';
import { importServers } from './import-servers.js';
import { parseClientJson, setSectionMember, setTopLevel } from './json-text.js';

/** The id of the entry `carte install` writes into a client's file. */
export const CARTE_ENTRY_ID = 'carte';

export interface InstallInput {
  spec: ClientSpec;
  clientPath: string;
  clientText: string;
  /** Carte's config file the servers move into; `text` is '' when it does not exist yet. */
  carte: { path: string; text: string };
  /** How the client should start Carte on stdio (absolute paths, as `carte serve` prints them). */
  command: { command: string; args: string[] };
  /** The environment and data dir the new Carte config is checked with. */
  load: LoadOptions;
  /** Rewrite a `carte` entry that starts Carte another way than `command` (`--refresh`). */
  refresh?: boolean;
}

/** How a client starts Carte: the part of its entry install writes and `--refresh` rewrites. */
export interface EntryCommand {
  command: unknown;
  args: unknown;
}

export type InstallPlan =
  | { kind: 'already'; why: string }
  /** The client has a carte entry, but it starts Carte otherwise (another node, flags or paths). */
  | { kind: 'stale'; current: EntryCommand; wanted: EntryCommand }
  /** That entry rewritten: only its value changes in the client's file. */
  | { kind: 'refresh'; clientText: string; before: Record<string, unknown>; after: Record<string, unknown> }
  | {
      kind: 'install';
      clientText: string;
      carteText: string;
      /** Servers written into Carte's config: id there and id in the client's file. */
      added: { id: string; writtenId: string; entry: Record<string, unknown> }[];
      /** Servers Carte's config already had, with the same definition. */
      same: string[];
      secrets: string[];
      warnings: string[];
      /** The client's servers section before and after. */
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    };

/**
 * What `carte install` changes, computed from the two files' text and written by the caller: the
 * client's servers move into Carte's config, and the client's section becomes one `carte` entry.
 * Every other byte of the client's file stays. Throws CarteError naming the file and the problem.
 */
export function planInstall(input: InstallInput): InstallPlan {
  const { spec, clientPath } = input;
  const doc = parseClientJson(clientPath, input.clientText);
  const written = doc[spec.section] ?? {};
  if (!isRecord(written))
    throw new CarteError(
      'bad_config',
      `cannot read ${quote(clientPath, 200)}: its "${spec.section}" is not an object`,
    );
  if (Object.hasOwn(written, CARTE_ENTRY_ID)) return planExisting(input, written[CARTE_ENTRY_ID]);
  checkCarteFormat(input.carte);
  const imported = importServers(spec, clientPath, written);
  const merged = mergeServersIntoText(input.carte.path, input.carte.text, imported.incoming);
  checkLoads(input.carte.path, merged.text, input.load);
  const after = { [CARTE_ENTRY_ID]: carteEntry(spec, input.command) };
  return {
    kind: 'install',
    clientText: setTopLevel(input.clientText, spec.section, after),
    carteText: merged.text,
    added: imported.incoming.filter((s) => merged.added.includes(s.id)),
    same: merged.same,
    secrets: imported.secrets,
    warnings: imported.warnings,
    before: written,
    after,
  };
}

/**
 * A client that has a carte entry already: nothing to do when it starts Carte as `command` does;
 * else it is stale (Node moved, a flag was added since it was written), rewritten on `refresh`.
 * The entry's other keys (env, a client's own settings) stay.
 */
function planExisting(input: InstallInput, existing: unknown): InstallPlan {
  const { spec, clientPath } = input;
  const wanted = carteEntry(spec, input.command);
  const current: Record<string, unknown> = isRecord(existing) ? existing : {};
  const same =
    current.command === wanted.command && JSON.stringify(current.args) === JSON.stringify(wanted.args);
  if (same) return { kind: 'already', why: `${clientPath} already has a "${CARTE_ENTRY_ID}" entry` };
  const pick = (e: Record<string, unknown>): EntryCommand => ({ command: e.command, args: e.args });
  if (!input.refresh) return { kind: 'stale', current: pick(current), wanted: pick(wanted) };
  const after = { ...current, ...wanted };
  return {
    kind: 'refresh',
    clientText: setSectionMember(input.clientText, spec.section, CARTE_ENTRY_ID, after),
    before: current,
    after,
  };
}

/** The client's `carte` entry as it stands in its file (undefined: none); CarteError when the file does not parse. */
export function carteEntryIn(spec: ClientSpec, clientPath: string, clientText: string): unknown {
  const section = parseClientJson(clientPath, clientText)[spec.section];
  return isRecord(section) ? section[CARTE_ENTRY_ID] : undefined;
}

/** A digest of text or of an entry, to tell later whether it changed. */
export function digest(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return createHash('sha256').update(text).digest('hex');
}

/** Servers are written in Carte's own format, so the file they go into must be in it. */
function checkCarteFormat(carte: { path: string; text: string }): void {
  if (carte.text.trim() === '') return;
  const parsed = parseText(carte.text, carte.path, new Problems());
  const format = parsed.ok ? detectFormat(parsed.value, carte.path) : 'carte';
  if (format !== 'carte')
    throw new CarteError(
      'bad_config',
      `cannot move servers into ${quote(carte.path, 200)}: it is a ${format}-format file; give --config a file in Carte's format`,
    );
}

/** The new config must load, or every client would start a Carte that refuses to run. */
function checkLoads(path: string, text: string, load: LoadOptions): void {
  const result = parseConfigText(text, { ...load, path });
  if (result.ok) return;
  const lines = result.errors.slice(0, 3).map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
  throw new CarteError(
    'bad_config',
    `cannot move the servers into ${quote(path, 200)}: it would not load (${lines.join('; ')}); fix the client's file and install again`,
  );
}
