import { existsSync } from 'node:fs';
import { join, posix, resolve, win32 } from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * Where the config came from: `--config`, `CARTE_CONFIG`, the working directory, the user config
 * (userConfigPath); 'demo' means no file was found and the bundled demo applies.
 */
export type ConfigSource = 'flag' | 'env' | 'cwd' | 'user' | 'demo';

/** Where this user's files are looked for: the environment, the platform and the home directory. */
export interface UserPlace {
  env: Env;
  platform: NodeJS.Platform;
  home: string;
}

/** File names looked for in the working directory, in order. */
export const CONFIG_FILE_NAMES = ['carte.yaml', 'carte.json'] as const;

/**
 * The config file to load: `--config`, then `CARTE_CONFIG`, then `carte.yaml` or `carte.json` in
 * `cwd` (the first that exists), then the user config when it exists, else 'demo', whose path is
 * the user config: where a command that writes config (`carte add`, `carte approve`) creates
 * one, so that the next command reads it from any directory. Relative paths are taken from
 * `cwd`; the file is not checked for the flag and variable.
 */
export function resolveConfigPath(opts: UserPlace & { flag?: string; cwd: string }): {
  path: string;
  source: ConfigSource;
} {
  if (nonEmpty(opts.flag)) return { path: resolve(opts.cwd, opts.flag), source: 'flag' };
  const fromEnv = opts.env.CARTE_CONFIG;
  if (nonEmpty(fromEnv)) return { path: resolve(opts.cwd, fromEnv), source: 'env' };
  for (const name of CONFIG_FILE_NAMES) {
    const path = join(opts.cwd, name);
    if (existsSync(path)) return { path, source: 'cwd' };
  }
  const user = userConfigPath(opts);
  return { path: user, source: existsSync(user) ? 'user' : 'demo' };
}

/**
 * This user's config file, read when no other is given: `%APPDATA%\carte\carte.yaml` on Windows,
 * else `$XDG_CONFIG_HOME/carte/carte.yaml` or `~/.config/carte/carte.yaml` (macOS included, as
 * most command-line tools there do).
 */
export function userConfigPath(opts: UserPlace): string {
  const { env, home } = opts;
  if (opts.platform === 'win32') {
    const roaming = nonEmpty(env.APPDATA) ? env.APPDATA : win32.join(home, 'AppData', 'Roaming');
    return win32.join(roaming, 'carte', 'carte.yaml');
  }
  // The XDG spec says to ignore a relative XDG_CONFIG_HOME.
  const xdg = env.XDG_CONFIG_HOME;
  const base = nonEmpty(xdg) && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.config');
  return posix.join(base, 'carte', 'carte.yaml');
}

/**
 * Where Carte keeps its data (the store, the demo's files): `--data-dir`, then `CARTE_DATA_DIR`,
 * then the platform's place: `$XDG_DATA_HOME/carte` or `~/.local/share/carte` on Linux and other
 * Unixes, `~/Library/Application Support/carte` on macOS, `%LOCALAPPDATA%\carte` on Windows.
 */
export function resolveDataDir(opts: UserPlace & { flag?: string }): string {
  if (nonEmpty(opts.flag)) return opts.flag;
  const { env, home } = opts;
  if (nonEmpty(env.CARTE_DATA_DIR)) return env.CARTE_DATA_DIR;
  if (opts.platform === 'win32') {
    const local = nonEmpty(env.LOCALAPPDATA) ? env.LOCALAPPDATA : win32.join(home, 'AppData', 'Local');
    return win32.join(local, 'carte');
  }
  if (opts.platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'carte');
  // The XDG spec says to ignore a relative XDG_DATA_HOME.
  const xdg = env.XDG_DATA_HOME;
  if (nonEmpty(xdg) && posix.isAbsolute(xdg)) return posix.join(xdg, 'carte');
  return posix.join(home, '.local', 'share', 'carte');
}

/**
 * Where Carte keeps files it can always derive again (the dictionaries' gloss files), shared by
 * every data dir of the user: `CARTE_CACHE_DIR`, else `$XDG_CACHE_HOME/carte` or `~/.cache/carte`
 * on Linux and other Unixes, `~/Library/Caches/carte` on macOS, `%LOCALAPPDATA%\carte\cache` on
 * Windows.
 */
export function resolveCacheDir(opts: UserPlace): string {
  const { env, home } = opts;
  if (nonEmpty(env.CARTE_CACHE_DIR)) return env.CARTE_CACHE_DIR;
  if (opts.platform === 'win32') {
    const local = nonEmpty(env.LOCALAPPDATA) ? env.LOCALAPPDATA : win32.join(home, 'AppData', 'Local');
    return win32.join(local, 'carte', 'cache');
  }
  if (opts.platform === 'darwin') return posix.join(home, 'Library', 'Caches', 'carte');
  // The XDG spec says to ignore a relative XDG_CACHE_HOME.
  const xdg = env.XDG_CACHE_HOME;
  if (nonEmpty(xdg) && posix.isAbsolute(xdg)) return posix.join(xdg, 'carte');
  return posix.join(home, '.cache', 'carte');
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}
