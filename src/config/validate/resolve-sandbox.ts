import { isAbsolute, join, posix } from 'node:path';
import { quote } from '../../errors.js';
import type { Problems, Segment } from '../problems/problems.js';
import type { SandboxInput, SandboxObjectConfig } from '../schema/schema-sandbox.js';
import { expandTemplate, type TemplateContext } from '../variables/interpolate.js';

/** Where the sandbox's paths are taken from. */
export interface SandboxPlace extends TemplateContext {
  configDir?: string;
  /** The loaded config file (absolute): hidden like the user config, wherever it lives. */
  configPath?: string | undefined;
}

/**
 * Hidden from every sandboxed server, under the home directory (docs/sandbox.md, "What a sandboxed
 * server gets (Linux, bubblewrap)").
 */
export const BUILTIN_DENY_READ = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.kube',
  '.docker',
  '.config/gcloud',
  '.azure',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.config/gh',
  '.password-store',
  // Browser profiles (cookies, saved passwords), Linux and macOS.
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  'snap/firefox',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Safari',
  'Library/Keychains',
  // Carte's own user config and cache (the data dir is added by path).
  '.config/carte',
  '.cache/carte',
] as const;

/**
 * The effective sandbox of one stdio server: its own `sandbox` key, else `sandbox.default`;
 * `true` means the default's settings when it has some. Paths come back absolute, the built-in
 * denyRead list and the data dir added, and the state dir set. False when unsandboxed,
 * undefined when a path does not expand (reported to `out`).
 */
export function resolveSandbox(
  own: SandboxInput | undefined,
  fallback: SandboxInput,
  path: Segment[],
  place: SandboxPlace,
  out: Problems,
): SandboxObjectConfig | false | undefined {
  const chosen = own === true && typeof fallback === 'object' ? fallback : (own ?? fallback);
  if (chosen === false) return false;
  const settings: SandboxObjectConfig =
    chosen === true ? { network: [], allowWrite: [], denyRead: [] } : chosen;
  const at = own === undefined ? ['sandbox', 'default'] : [...path, 'sandbox'];
  let failed = false;
  const home = place.env.HOME;
  const expand = (raw: string, key: Segment[]): string => {
    const r = expandTemplate(raw.startsWith('~/') && home ? join(home, raw.slice(2)) : raw, place);
    if (!r.ok) {
      out.error([...at, ...key], r.message);
      failed = true;
      return raw;
    }
    if (isAbsolute(r.value)) return r.value;
    if (place.configDir !== undefined && !r.value.startsWith('~')) return join(place.configDir, r.value);
    out.error([...at, ...key], `${quote(raw)} is not an absolute path; start it with / or ~/`);
    failed = true;
    return raw;
  };
  const allowWrite = settings.allowWrite.map((p, i) => expand(p, ['allowWrite', i]));
  const denyRead = settings.denyRead.map((p, i) => expand(p, ['denyRead', i]));
  const stateDir =
    settings.stateDir !== undefined
      ? expand(settings.stateDir, ['stateDir'])
      : place.dataDir !== undefined
        ? join(place.dataDir, 'servers', place.server)
        : undefined;
  if (failed) return undefined;
  return {
    ...settings,
    allowWrite,
    denyRead: [...new Set([...builtinDenyRead(place), ...denyRead])],
    ...(stateDir === undefined ? {} : { stateDir }),
  };
}

/**
 * The built-in denyRead list for this user: the home entries, the data dir, the user config, and
 * the loaded config file when none of those already covers it (a ./carte.yaml, a Claude Desktop
 * file: it may hold other servers' secrets written inline).
 */
export function builtinDenyRead(place: Pick<SandboxPlace, 'env' | 'dataDir' | 'configPath'>): string[] {
  const home = place.env.HOME;
  const paths: string[] = home ? BUILTIN_DENY_READ.map((p) => posix.join(home, p)) : [];
  const xdg = place.env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) paths.push(join(xdg, 'carte'));
  if (place.dataDir !== undefined) paths.push(place.dataDir);
  const file = place.configPath;
  if (file !== undefined && !paths.some((p) => file === p || file.startsWith(`${p}/`))) paths.push(file);
  return paths;
}
