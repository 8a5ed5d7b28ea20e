// `carte doctor`'s client lines (docs/clients.md): for each client `carte install` went into from
// this data dir, whether its `carte` entry still starts this Carte. An entry whose Node or
// bin/carte.js is gone cannot start at all (FAIL); one that starts it with other Node flags or
// another Node (an entry from an older Carte, Node moved after an upgrade) works, but not as this
// Carte would start it: `carte install --client NAME --refresh` rewrites it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { carteEntryIn, CLIENTS, type InstallRecord } from '../../../config/index.js';
import type { SearchFinding } from './doctor-search.js';

/** How a client starts Carte: its command and arguments. */
export interface LaunchLine {
  command: string;
  args: readonly string[];
}

/** The install records in `<dataDir>/installs`, each with the text of its client's file (undefined: gone). */
export function readInstalls(dataDir: string): { record: InstallRecord; text: string | undefined }[] {
  const dir = join(dataDir, 'installs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as InstallRecord;
      return { record, text: existsSync(record.file) ? readFileSync(record.file, 'utf8') : undefined };
    });
}

/**
 * One finding per install: `wanted` is how this Carte starts (its client snippet); only what goes
 * before `serve` is compared (Node, its flags, bin/carte.js), since `--config` and `--data-dir`
 * were the user's choice at install. `exists` says whether a path is there (the file system).
 */
export function clientFindings(
  installs: readonly { record: InstallRecord; text: string | undefined }[],
  wanted: LaunchLine,
  exists: (path: string) => boolean,
): SearchFinding[] {
  return installs.map(({ record, text }) => {
    const spec = Object.hasOwn(CLIENTS, record.client) ? CLIENTS[record.client] : undefined;
    const check = `client ${record.client}`;
    const again = `carte install --client ${record.client}`;
    if (spec === undefined || text === undefined)
      return {
        check,
        ok: true,
        detail: `warning: ${record.file} is gone (the file as it was before install: ${record.backup})`,
      };
    let entry: unknown;
    try {
      entry = carteEntryIn(spec, record.file, text);
    } catch (err) {
      return { check, ok: false, detail: (err as Error).message, fix: `fix ${record.file} by hand` };
    }
    const line = launchLineOf(entry);
    if (line === undefined)
      return {
        check,
        ok: true,
        detail: `warning: ${record.file} has no "carte" entry any more; run \`${again}\` to go through Carte again`,
      };
    const missing = [line.command, line.args.find((a) => a.endsWith('carte.js'))].filter(
      (p): p is string => p !== undefined && !exists(p),
    );
    if (missing.length > 0)
      return {
        check,
        ok: false,
        detail: `its carte entry in ${record.file} cannot start: ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} gone`,
        fix: `run \`${again} --refresh\` to point it at this Carte`,
      };
    const same =
      line.command === wanted.command &&
      JSON.stringify(beforeServe(line.args)) === JSON.stringify(beforeServe(wanted.args));
    return {
      check,
      ok: true,
      detail: same
        ? `its carte entry in ${record.file} starts this Carte`
        : `warning: its carte entry in ${record.file} starts Carte otherwise (${[line.command, ...beforeServe(line.args)].join(' ')}); \`${again} --refresh\` rewrites it`,
    };
  });
}

function launchLineOf(entry: unknown): LaunchLine | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { command, args } = entry as Record<string, unknown>;
  if (typeof command !== 'string') return undefined;
  const list = Array.isArray(args) ? args.filter((a): a is string => typeof a === 'string') : [];
  return { command, args: list };
}

function beforeServe(args: readonly string[]): readonly string[] {
  const at = args.indexOf('serve');
  return at < 0 ? args : args.slice(0, at);
}
