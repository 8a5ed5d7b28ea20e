import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CarteError, quote } from '../../errors.js';
import { detectFormat } from '../formats/detect-format.js';
import { editJson, editYaml, type ServersEdit } from './edit-formats.js';
import { syntaxOf } from '../parse/parse-text.js';
import { checkServerInput, entryFor, type ServerInput } from './server-input.js';
import { inlineSecrets } from '../proposals/proposal-checks.js';
import { badIdMessage, isServerId, normaliseServerId } from '../schema/server-ids.js';

/**
 * Adds a server to a config file, editing it in place: YAML keeps its comments and key order,
 * JSON is rewritten with 2-space indent in the same order. A missing file is created (with its
 * folder). Claude files get the server under `mcpServers`, VS Code files with a `type`. A server
 * holding secrets written inline (an API key in `env`, a token in a header) leaves the file mode
 * 0600, as `carte install` does; returns those secrets' places (`env.API_KEY ...`), never their
 * values. Throws CarteError 'bad_input' when the id is taken or invalid, 'bad_config' when the
 * file cannot be parsed.
 */
export function addServerToFile(path: string, id: string, server: ServerInput): string[] {
  if (!isServerId(id)) throw new CarteError('bad_input', badIdMessage(id));
  const input = checkServerInput(server);
  const text = readIfExists(path);
  const edited = editServersText(path, text ?? '', (servers, doc) => {
    const taken = findKey(servers.keys(), id);
    if (taken !== undefined) {
      const as = taken === id ? '' : ` (as ${JSON.stringify(taken)})`;
      throw new CarteError('bad_input', `server "${id}" already exists${as} in ${quote(path, 200)}`);
    }
    servers.set(id, entryFor(input, detectFormat(doc, path)));
    return true;
  });
  const secrets = inlineSecrets(id, input as unknown as Record<string, unknown>).map(
    (p) => `${p.path.replace(`servers.${id}.`, '')} ${p.message}`,
  );
  if (edited !== undefined) writeAtomically(path, edited, secrets.length > 0 ? 0o600 : undefined);
  return secrets;
}

/** Removes a server from a config file; false when the file or the server is not there. */
export function removeServerFromFile(path: string, id: string): boolean {
  const text = readIfExists(path);
  if (text === undefined) return false;
  const edited = editServersText(path, text, (servers) => {
    const key = findKey(servers.keys(), id);
    return key !== undefined && servers.delete(key);
  });
  if (edited === undefined) return false;
  writeAtomically(path, edited);
  return true;
}

/** Applies `change` to the servers section of config text; undefined when nothing changed. */
export function editServersText(path: string, text: string, change: ServersEdit): string | undefined {
  const syntax = syntaxOf(path);
  if (syntax === undefined) {
    throw new CarteError('bad_input', `cannot edit ${quote(path, 200)}: use a .yaml, .yml or .json file`);
  }
  return syntax === 'yaml' ? editYaml(path, text, change) : editJson(path, text, change);
}

/** The key naming server `id`: itself, or a foreign id that normalises to it ("GitHub" for "github"). */
function findKey(keys: readonly string[], id: string): string | undefined {
  return keys.includes(id) ? id : keys.find((k) => !isServerId(k) && normaliseServerId(k) === id);
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CarteError('bad_config', `cannot read ${quote(path, 200)}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/**
 * Writes a sibling file and renames it over, so a crash never leaves half a file; keeps the
 * file's mode unless `mode` is given (a new file gets 0644, or `mode`).
 */
export function writeAtomically(path: string, text: string, mode?: number): void {
  let keep = 0o644;
  try {
    keep = statSync(path).mode & 0o777;
  } catch {
    mkdirSync(dirname(path), { recursive: true });
  }
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, text, { mode: mode ?? keep });
  if (mode !== undefined) chmodSync(temp, mode); // the umask may have taken bits away
  renameSync(temp, path);
}
