import { isDeepStrictEqual } from 'node:util';
import { CarteError, quote } from '../../errors.js';
import { editServersText } from './edit-file.js';

/** A server moved into a Carte config from another file (`carte install`). */
export interface IncomingServer {
  /** Its id in Carte's config. */
  id: string;
  /** The entry as Carte's format writes it. */
  entry: Record<string, unknown>;
  /** The file it came from and its id there, for the comment and for messages. */
  from: string;
  writtenId: string;
}

/** What merging did: the new text, and which ids were added or were already there as they are. */
export interface Merged {
  text: string;
  added: string[];
  same: string[];
}

/**
 * Adds servers to config text, each under a comment naming the file it came from (YAML keeps
 * every other comment). A server already there with the same entry is left alone; one with
 * another entry is a CarteError 'bad_input' naming both, and nothing is written.
 */
export function mergeServersIntoText(path: string, text: string, incoming: IncomingServer[]): Merged {
  const added: string[] = [];
  const same: string[] = [];
  const edited = editServersText(path, text, (servers) => {
    for (const s of incoming) {
      if (!servers.keys().includes(s.id)) {
        servers.set(s.id, s.entry, `from ${s.from}`);
        added.push(s.id);
      } else if (isDeepStrictEqual(servers.get(s.id), s.entry)) same.push(s.id);
      else throw conflict(path, s);
    }
    return added.length > 0;
  });
  return { text: edited ?? text, added, same };
}

/** How removeServersFromText chooses: a reason to keep an entry (seen as plain data), and the file they came from. */
export interface RemoveOptions {
  keepWhy?: (id: string, entry: unknown) => string | undefined;
  /** The file mergeServersIntoText named in each server's comment; that comment goes too. */
  from?: string;
}

/** Removes servers from config text, except those `keepWhy` gives a reason to keep; ids not there are skipped. */
export function removeServersFromText(
  path: string,
  text: string,
  ids: readonly string[],
  opts: RemoveOptions = {},
): { text: string; removed: string[]; kept: { id: string; why: string }[] } {
  const comment = opts.from === undefined ? undefined : `from ${opts.from}`;
  const removed: string[] = [];
  const kept: { id: string; why: string }[] = [];
  const edited = editServersText(path, text, (servers) => {
    for (const id of ids.filter((i) => servers.keys().includes(i))) {
      const why = opts.keepWhy?.(id, servers.get(id));
      if (why !== undefined) kept.push({ id, why });
      else if (servers.delete(id, comment)) removed.push(id);
    }
    return removed.length > 0;
  });
  return { text: edited ?? text, removed, kept };
}

function conflict(path: string, s: IncomingServer): CarteError {
  const theirs = `server ${JSON.stringify(s.writtenId)} in ${quote(s.from, 200)}`;
  return new CarteError(
    'bad_input',
    `${theirs} differs from server ${JSON.stringify(s.id)} already in ${quote(path, 200)}; rename or remove one of them, then install again`,
  );
}
