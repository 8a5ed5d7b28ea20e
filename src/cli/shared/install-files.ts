import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  CLIENTS,
  resolveDataDir,
  userConfigPath,
  writeAtomically,
  type ClientSpec,
  type ConfigSource,
  type InstallRecord,
} from '../../config/index.js';
import { CarteError, quote } from '../../errors.js';
import { userPlace, type GlobalFlags } from './app.js';

/** Where `carte install` reads and writes for one client. */
export interface InstallPaths {
  client: string;
  backup: string;
  /** Carte's config the servers move into, and how it was chosen (for the client's entry). */
  carte: string;
  source: ConfigSource;
  dataDir: string;
  record: string;
}

/** The client's file, its backup beside it, Carte's config (--config, CARTE_CONFIG, else the user config), the record. */
export function installPaths(spec: ClientSpec, flags: GlobalFlags): InstallPaths {
  const place = userPlace();
  const client = spec.file(place);
  const given = flags.config ?? (place.env.CARTE_CONFIG || undefined);
  const source: ConfigSource = flags.config ? 'flag' : given ? 'env' : 'user';
  const dataDir = resolveDataDir({ ...(flags.dataDir ? { flag: flags.dataDir } : {}), ...place });
  return {
    client,
    backup: `${client}.carte-backup`,
    carte: given ? resolve(given) : userConfigPath(place),
    source,
    dataDir,
    record: join(dataDir, 'installs', `${spec.id}.json`),
  };
}

/** The client's file; missing is an error naming where it was looked for. */
export function readClientFile(spec: ClientSpec, path: string): string {
  const text = readOptional(path);
  if (text === undefined)
    throw new CarteError(
      'bad_input',
      `no ${spec.name} config at ${quote(path, 200)}; start ${spec.name} once (or create the file), then install again`,
    );
  return text;
}

/** A file's text, or undefined when it does not exist. */
export function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CarteError('bad_input', `cannot read ${quote(path, 200)}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** Copies the client's file beside it, byte for byte and with its mode; never over an earlier backup. */
export function writeBackup(paths: InstallPaths, text: string): void {
  if (existsSync(paths.backup))
    throw new CarteError(
      'bad_input',
      `${quote(paths.backup, 200)} exists from an earlier install; move it aside (it may be your only copy), then install again`,
    );
  writeFileSync(paths.backup, text, { flag: 'wx', mode: statSync(paths.client).mode & 0o777 });
}

/** Writes the record, readable only by this user (it names files, never secrets). */
export function writeRecord(path: string, record: InstallRecord): void {
  mkdirSync(dirname(path), { recursive: true });
  writeAtomically(path, `${JSON.stringify(record, null, 2)}\n`, 0o600);
}

export function readRecord(spec: ClientSpec, path: string): InstallRecord {
  const text = readOptional(path);
  if (text === undefined)
    throw new CarteError(
      'bad_input',
      `Carte has no record of installing into ${spec.name} (looked for ${quote(path, 200)}); was it installed with another --data-dir?`,
    );
  return JSON.parse(text) as InstallRecord;
}

/** Servers other clients' installs into the same Carte config rely on (added or already there), by client name. */
export function usedElsewhere(
  spec: ClientSpec,
  recordPath: string,
  carteConfig: string,
): Map<string, string> {
  const used = new Map<string, string>();
  const dir = dirname(recordPath);
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (name === `${spec.id}.json` || !name.endsWith('.json')) continue;
    const other = JSON.parse(readFileSync(join(dir, name), 'utf8')) as InstallRecord;
    if (other.carteConfig !== carteConfig) continue;
    const label = Object.hasOwn(CLIENTS, other.client) ? CLIENTS[other.client].name : other.client;
    for (const id of [...other.added.map((a) => a.id), ...other.same]) used.set(id, label);
  }
  return used;
}

export function removeFiles(...paths: string[]): void {
  for (const p of paths) rmSync(p, { force: true });
}
