// The command that signs in to a server, named by every message about a missing sign-in. Apart from
// the OAuth client so that naming it loads none of the SDK.

/** Global flags the named command repeats (` --config /p/carte.yaml`), as the CLI was given them. */
let repeated = '';

/**
 * Makes every named command carry these global flags: a CLI run with `--config` or `--data-dir`
 * names a fix that acts on the same config and store (the environment's CARTE_* carry over alone).
 */
export function repeatGlobalFlags(words: readonly string[]): void {
  repeated = words.map((w) => ` ${shellWord(w)}`).join('');
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `carte auth login <id>`, with the global flags the CLI was given. */
export const loginCommand = (serverId: string): string => `carte auth login ${serverId}${repeated}`;
