import { removeServersFromText } from '../edit/merge-servers.js';
import { isRecord } from '../problems/problems.js';
import type { ClientId, ClientSpec } from './client-table.js';
import { CARTE_ENTRY_ID, digest } from './install-plan.js';
import { parseClientJson, setTopLevel } from './json-text.js';

/** What `carte install` remembers, so `carte uninstall` can undo it. Holds digests, never secrets. */
export interface InstallRecord {
  version: 1;
  client: ClientId;
  /** The client's file and its backup (the file as it was, byte for byte). */
  file: string;
  backup: string;
  /** The digest of the client's file as install wrote it: unchanged means restore the backup whole. */
  installedDigest: string;
  /** Carte's config the servers moved into, and what install added there (each entry's digest). */
  carteConfig: string;
  added: { id: string; writtenId: string; entryDigest: string }[];
  /** Servers Carte's config had already, with the same definition: install did not add them. */
  same: string[];
  /** True when Carte's config did not exist before this install (records from older Carte lack it). */
  createdConfig?: boolean;
}

export interface UninstallInput {
  spec: ClientSpec;
  record: InstallRecord;
  clientText: string;
  backupText: string;
  /** Carte's config as it is now ('' when gone). */
  carte: { path: string; text: string };
  /** Servers another client's install still relies on, with that client's name. */
  usedElsewhere: ReadonlyMap<string, string>;
}

export interface UninstallPlan {
  clientText: string;
  /** True when the client's file is the backup, byte for byte. */
  exact: boolean;
  carteText: string;
  removed: string[];
  kept: { id: string; why: string }[];
}

/**
 * Undoes `carte install`. An unchanged client file becomes its backup again, byte for byte;
 * a changed one gets its servers section back (the original servers, then any added since, less
 * the `carte` entry) and keeps every other change. The servers install added leave Carte's config,
 * unless changed there since or used by another client's install.
 */
export function planUninstall(input: UninstallInput): UninstallPlan {
  const { record } = input;
  const exact = digest(input.clientText) === record.installedDigest;
  const clientText = exact ? input.backupText : restoreSection(input);
  const kept: { id: string; why: string }[] = [];
  const removable = record.added.filter((a) => {
    const other = input.usedElsewhere.get(a.id);
    if (other !== undefined) kept.push({ id: a.id, why: `${other} uses it too` });
    return other === undefined;
  });
  const byId = new Map(removable.map((a) => [a.id, a]));
  const changed = (id: string, entry: unknown) =>
    digest(entry) === byId.get(id)?.entryDigest
      ? undefined
      : `it changed in ${input.carte.path} since install`;
  const carte = removeServersFromText(input.carte.path, input.carte.text, [...byId.keys()], {
    keepWhy: changed,
    from: record.file,
  });
  kept.push(...carte.kept);
  return { clientText, exact, carteText: carte.text, removed: carte.removed, kept };
}

function restoreSection(input: UninstallInput): string {
  const { section } = input.spec;
  const original = parseClientJson(input.record.backup, input.backupText)[section];
  const now = parseClientJson(input.record.file, input.clientText)[section];
  const restored: Record<string, unknown> = isRecord(original) ? { ...original } : {};
  if (isRecord(now))
    for (const [id, entry] of Object.entries(now))
      if (id !== CARTE_ENTRY_ID && !Object.hasOwn(restored, id)) restored[id] = entry;
  return setTopLevel(input.clientText, section, restored);
}
