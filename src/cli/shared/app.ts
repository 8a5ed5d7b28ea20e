import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  demoConfig,
  loadConfigFile,
  resolveConfigPath,
  resolveCacheDir,
  resolveDataDir,
  userConfigPath,
  type CarteConfig,
  type ConfigSource,
  type LoadResult,
} from '../../config/index.js';
import { CarteError, quote } from '../../errors.js';
import {
  compileRules,
  Gateway,
  isDatabaseUrl,
  projectsFromConfig,
  openStore,
  searchOptionsFromConfig,
  serversFromConfig,
  type EmbedProgress,
  type Logger,
  type Store,
  withoutUrlPassword,
} from '../../gateway/index.js';
import { createLogger, LOG_LEVELS, type LogLevel } from './logger.js';
import { formatProblem, note } from './output.js';

/** Flags every command accepts. */
export interface GlobalFlags {
  config?: string;
  dataDir?: string;
  logLevel?: string;
}

export interface LoadedConfig {
  config: CarteConfig;
  path: string;
  source: ConfigSource;
  dataDir: string;
  warnings: LoadResult['warnings'];
}

/** The data dir the flags and environment select (nothing is read from disk). */
export function dataDirOf(flags: GlobalFlags): string {
  return resolveDataDir({ ...opt('flag', flags.dataDir), ...userPlace() });
}

/** The unix socket a Carte serving HTTP opens in its data dir, for stdio sessions to relay to. */
export function daemonSocketPath(dataDir: string): string {
  return join(dataDir, 'carte.sock');
}

/** The data dir and config the flags and environment select (the only place that reads them). */
export function loadConfig(flags: GlobalFlags): LoadedConfig {
  const env = process.env;
  const dataDir = dataDirOf(flags);
  const { path, source } = findConfig(flags);
  if (source === 'demo') {
    makeDataDir(dataDir, 'sandbox');
    return { config: demoConfig(dataDir), path, source, dataDir, warnings: [] };
  }
  const result = loadConfigFile(path, { env, dataDir });
  if (!result.ok || !result.config) {
    const lines = result.errors.map(formatProblem);
    throw new CarteError(
      'bad_config',
      `config ${path} has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${lines.join('\n')}`,
      {
        details: { problems: result.errors },
      },
    );
  }
  return { config: result.config, path, source, dataDir, warnings: result.warnings };
}

/**
 * Makes the data dir (and a folder in it): a path that cannot be one (a file in the way, no
 * permission) is the user's flag or variable to fix, not a bug, so the error names it.
 */
function makeDataDir(dataDir: string, sub = ''): void {
  try {
    mkdirSync(join(dataDir, sub), { recursive: true });
  } catch (err) {
    throw new CarteError(
      'store',
      `cannot create the data dir "${dataDir}" (${(err as Error).message}); pass --data-dir or set CARTE_DATA_DIR to a directory this user can write`,
      { cause: err },
    );
  }
}

/** The config file the flags, environment and working directory select, and where it came from (not read). */
export function findConfig(flags: GlobalFlags): { path: string; source: ConfigSource } {
  return resolveConfigPath({ ...opt('flag', flags.config), ...userPlace(), cwd: process.cwd() });
}

/** This user's environment, platform and home: what the user config and data dir are found from. */
export function userPlace(): { env: NodeJS.ProcessEnv; platform: NodeJS.Platform; home: string } {
  return { env: process.env, platform: process.platform, home: homedir() };
}

/** The user config file for this user: `$XDG_CONFIG_HOME/carte/carte.yaml` and so on. */
export function userConfigFile(): string {
  return userConfigPath(userPlace());
}

const SOURCE_LABELS: Record<Exclude<ConfigSource, 'demo'>, string> = {
  flag: 'from --config',
  env: 'from CARTE_CONFIG',
  cwd: 'found in the working directory',
  user: 'the user config',
};

/** Which config is in use, for people: `/home/u/.config/carte/carte.yaml (the user config)`. */
export function describeConfig(loaded: Pick<LoadedConfig, 'path' | 'source'>, more = ''): string {
  if (loaded.source === 'demo') return 'the bundled demo (no config file found)';
  return `${loaded.path} (${SOURCE_LABELS[loaded.source]}${more ? `, ${more}` : ''})`;
}

export interface App extends LoadedConfig {
  gateway: Gateway;
  /** The store the gateway uses: read-only statistics (`carte tools --usage`, `carte stats`). */
  store: Store;
  logger: Logger;
  close(): Promise<void>;
}

/** Loads the config, opens the store under the data dir and builds the gateway. */
export async function openApp(
  flags: GlobalFlags,
  defaultLevel: LogLevel = 'warn',
  serving: { analyseApart?: boolean; gateway?: boolean; answersElicitation?: boolean } = {},
): Promise<App> {
  const logger = createLogger(logLevel(flags.logLevel ?? process.env.CARTE_LOG_LEVEL, defaultLevel));
  const loaded = loadConfig(flags);
  for (const w of loaded.warnings) logger.warn(`${loaded.path}: ${formatProblem(w)}`);
  const location = storeLocation(loaded);
  if (serving.gateway) requireSharedKey(location);
  if (location === join(loaded.dataDir, 'carte.db')) makeDataDir(loaded.dataDir);
  const store = await openStore(location, {
    activity: { retentionDays: loaded.config.audit.retentionDays },
    // Upstream sign-ins are sealed under CARTE_SECRET_KEY, else <dataDir>/secret.key (docs/upstream-auth.md).
    secretKey: {
      ...(process.env.CARTE_SECRET_KEY ? { key: process.env.CARTE_SECRET_KEY } : {}),
      // The key before a rotation: what it sealed still opens (`carte auth rotate-key`).
      ...(process.env.CARTE_SECRET_KEY_PREVIOUS
        ? { previousKey: process.env.CARTE_SECRET_KEY_PREVIOUS }
        : {}),
      file: join(loaded.dataDir, 'secret.key'),
    },
    lease: leaseOf(loaded.config.store.leaseSeconds),
  });
  const gateway = await Gateway.open({
    servers: serversFromConfig(loaded.config),
    store,
    logger,
    limits: loaded.config.limits,
    search: searchOptionsFromConfig(loaded.config.search, printProgress()),
    rules: compileRules(loaded.config.rules),
    projects: projectsFromConfig(loaded.config),
    audit: { arguments: loaded.config.audit.arguments },
    hotList: { size: loaded.config.menu.hotList, halfLifeDays: loaded.config.menu.halfLifeDays },
    ...(serving.analyseApart ? { analyseApart: true } : {}),
    // `carte call` answers an upstream's form elicitation (elicit-form.ts), so it may declare it.
    ...(serving.answersElicitation ? { answersElicitation: true } : {}),
    // Gloss files live in the user's cache dir, so every data dir shares them; CARTE_GLOSS_FILES=off
    // parses dictionaries in memory as before gloss files (bench:core's baseline).
    ...(process.env.CARTE_GLOSS_FILES === 'off'
      ? {}
      : { glossFiles: join(resolveCacheDir(userPlace()), 'dictionaries') }),
  });
  return {
    ...loaded,
    gateway,
    store,
    logger,
    close: async () => {
      await gateway.close();
      await store.close();
    },
  };
}

/**
 * A gateway on PostgreSQL seals upstream sign-ins under CARTE_SECRET_KEY, which every replica
 * shares: without it, it does not start (a key file of its own would seal what the others cannot open).
 */
function requireSharedKey(location: string): void {
  if (!isDatabaseUrl(location) || process.env.CARTE_SECRET_KEY) return;
  throw new CarteError(
    'bad_config',
    `a gateway on the PostgreSQL store ${quote(withoutUrlPassword(location))} needs CARTE_SECRET_KEY, the key every replica shares to seal upstream sign-ins; set it to the same value on every replica (make one with "openssl rand -base64 32")`,
  );
}

/**
 * Where the store lives: CARTE_DATABASE_URL, else the config's `store.url` (both PostgreSQL), else
 * the SQLite file in the data dir.
 */
export function storeLocation(loaded: Pick<LoadedConfig, 'config' | 'dataDir'>): string {
  const fromEnv = process.env.CARTE_DATABASE_URL;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!/^postgres(ql)?:\/\/\S+$/i.test(fromEnv))
      throw new CarteError(
        'bad_config',
        `CARTE_DATABASE_URL ${quote(withoutUrlPassword(fromEnv))} is not a postgres:// or postgresql:// URL; unset it to use SQLite in the data dir`,
      );
    return fromEnv;
  }
  return loaded.config.store.url ?? join(loaded.dataDir, 'carte.db');
}

/** `embedding tools: 120/527` on stderr, at most once a second and always the last batch. */
function printProgress(): (p: EmbedProgress) => void {
  let last = 0;
  return ({ done, total }) => {
    const now = Date.now();
    if (done < total && now - last < 1000) return;
    last = now;
    note(`embedding tools: ${done}/${total}`);
  };
}

function logLevel(value: string | undefined, fallback: LogLevel): LogLevel {
  if (value === undefined || value === '') return fallback;
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new CarteError('bad_input', `log level "${value}" is not one of ${LOG_LEVELS.join(', ')}`);
}

function opt<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

/** A replica's lease from `store.leaseSeconds`: renewed every quarter of its life. */
function leaseOf(seconds: number): { ttlMs: number; renewMs: number } {
  return { ttlMs: seconds * 1000, renewMs: (seconds * 1000) / 4 };
}
