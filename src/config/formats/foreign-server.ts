import { didYouMean } from '../problems/did-you-mean.js';
import { CARTE_SERVER_KEYS, knownServerKeys, type Dialect } from './dialects.js';
import { readEnvFile, type EnvFileContext } from '../variables/env-file.js';
import { describeValue, isRecord, listChoices, type Problems, type Segment } from '../problems/problems.js';

/** Where a server sits and what its file's format reads. */
export interface ServerPlace {
  path: Segment[];
  dialect: Dialect;
  /** For `envFile`: variables, the data dir, the config file's folder and the server as written. */
  files: EnvFileContext;
}

export interface TranslatedServer {
  /** The server in Carte's shape, for Carte's own checks; undefined when it has errors. */
  server: unknown;
  /** Carte's key -> the key as written, for keys read under another client's name. */
  renames: Map<string, string>;
}

/** One server being rewritten; each step below reads some keys and says whether they were good. */
interface Draft extends ServerPlace {
  raw: Record<string, unknown>;
  server: Record<string, unknown>;
  renames: Map<string, string>;
  out: Problems;
}

const TYPES = ['stdio', 'http', 'streamable-http', 'sse'];

/**
 * Rewrites one server of a client file into Carte's shape. Carte's own keys are copied for
 * Carte's schema to check; other clients' keys are mapped (see DIALECTS); unknown keys are warnings.
 */
export function translateServer(raw: unknown, place: ServerPlace, out: Problems): TranslatedServer {
  const renames = new Map<string, string>();
  if (!isRecord(raw)) return { server: raw, renames }; // Carte's own check reports it.
  const known = knownServerKeys(place.dialect);
  const server: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'trust' && typeof value === 'boolean') out.warn([...place.path, key], geminiTrust(value));
    else if (CARTE_SERVER_KEYS.includes(key)) server[key] = value;
    else if (!known.includes(key)) {
      out.warn([...place.path, key], `ignored unknown key ${JSON.stringify(key)}${didYouMean(key, known)}`);
    }
  }
  const draft: Draft = { ...place, raw, server, renames, out };
  const steps = [readEndpoint, readTimeout, readDisabled, readEnvFileKey, readType];
  const ok = steps.reduce((good, step) => step(draft) && good, true);
  return { server: ok ? server : undefined, renames };
}

/** Gemini CLI writes `trust: true` to skip its own confirmations; Carte's `trust` is `{pin}`. */
function geminiTrust(value: boolean): string {
  return `ignored "trust": ${value}, Gemini CLI's switch that skips its confirmations; Carte's own "trust" is an object such as {"pin": true} (docs/security.md)`;
}

function endpointKeys(d: Draft): string[] {
  const aliases = Object.entries(d.dialect.aliases).filter(([, to]) => to === 'url');
  return ['url', ...aliases.map(([from]) => from)].filter((k) => Object.hasOwn(d.raw, k));
}

/** `httpUrl` (Gemini CLI) and `serverUrl` (Windsurf) are the `url` of a remote server. */
function readEndpoint(d: Draft): boolean {
  const given = endpointKeys(d);
  if (given.length > 1) {
    const names = given.map((k) => JSON.stringify(k));
    const list = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    d.out.error(
      d.path,
      `has ${given.length === 2 ? 'both ' : ''}${list}; a server needs exactly one endpoint`,
    );
    return false;
  }
  const [key] = given;
  if (key === undefined || key === 'url') return true;
  if (Object.hasOwn(d.raw, 'command')) {
    d.out.error(d.path, `has both "command" and ${JSON.stringify(key)}; a server needs exactly one`);
    return false;
  }
  d.server.url = d.raw[key];
  d.renames.set('url', key);
  return true;
}

/**
 * Gemini CLI's `timeout` is the call timeout in milliseconds. Cline writes `timeout` in seconds
 * (60 by default), which read as milliseconds would fail every call, so a value under 1000 is
 * ignored with a warning that names the fix. `timeoutMs` wins when both are given.
 */
function readTimeout(d: Draft): boolean {
  if (!Object.hasOwn(d.dialect.aliases, 'timeout') || !Object.hasOwn(d.raw, 'timeout')) return true;
  const at = [...d.path, 'timeout'];
  const value = d.raw.timeout;
  if (Object.hasOwn(d.raw, 'timeoutMs')) {
    d.out.warn(at, 'ignored because "timeoutMs" is also given');
  } else if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value < 1000) {
    d.out.warn(
      at,
      `ignored: ${value} looks like seconds (Cline's unit), but Carte reads "timeout" in milliseconds (Gemini CLI's unit); for ${value} s write "timeoutMs": ${value * 1000}`,
    );
  } else {
    d.server.timeoutMs = value;
    d.renames.set('timeoutMs', 'timeout');
  }
  return true;
}

/** `disabled: true` is `enabled: false`; both given and saying opposite things is an error. */
function readDisabled(d: Draft): boolean {
  if (!d.dialect.disabledKey || !Object.hasOwn(d.raw, 'disabled')) return true;
  const { disabled, enabled } = d.raw;
  if (typeof disabled !== 'boolean') {
    d.out.error([...d.path, 'disabled'], `expected true or false, got ${describeValue(disabled)}`);
    return false;
  }
  if (!Object.hasOwn(d.raw, 'enabled')) d.server.enabled = !disabled;
  else if (enabled === disabled) {
    d.out.error(d.path, `"enabled": ${enabled} and "disabled": ${disabled} contradict each other; keep one`);
    return false;
  }
  return true;
}

/** VS Code's `envFile`: its variables go under `env`, whose own values win (as in VS Code). */
function readEnvFileKey(d: Draft): boolean {
  if (!d.dialect.envFile || !Object.hasOwn(d.raw, 'envFile')) return true;
  const at = [...d.path, 'envFile'];
  const written = d.raw.envFile;
  if (typeof written !== 'string') {
    d.out.error(at, `expected a string, got ${describeValue(written)}`);
    return false;
  }
  if (!Object.hasOwn(d.raw, 'command')) {
    if (endpointKeys(d).length === 0) return true; // Carte's own check says a command is missing.
    d.out.error(at, '"envFile" only applies to a stdio server (one with "command")');
    return false;
  }
  const r = readEnvFile(written, d.files);
  if (!r.ok) {
    d.out.error(at, r.message);
    return false;
  }
  const env = d.raw.env;
  if (env === undefined) d.server.env = r.vars;
  else if (isRecord(env)) d.server.env = { ...r.vars, ...env };
  return true;
}

/** `type` picks stdio or a remote transport; `httpUrl` alone means Streamable HTTP (Gemini CLI). */
function readType(d: Draft): boolean {
  const httpUrl = d.renames.get('url') === 'httpUrl';
  if (!Object.hasOwn(d.raw, 'type')) {
    if (httpUrl) d.server.transport = 'streamable-http';
    return true;
  }
  const type = d.raw.type;
  if (typeof type !== 'string' || !TYPES.includes(type)) {
    const hint = typeof type === 'string' ? didYouMean(type, TYPES) : '';
    d.out.error([...d.path, 'type'], `expected ${listChoices(TYPES)}, got ${describeValue(type)}${hint}`);
    return false;
  }
  const needs = type === 'stdio' ? 'command' : 'url';
  const has = needs === 'command' ? Object.hasOwn(d.raw, 'command') : endpointKeys(d).length > 0;
  if (!has) {
    d.out.error(d.path, `type ${JSON.stringify(type)} needs ${JSON.stringify(needs)}`);
    return false;
  }
  if (type === 'sse' && httpUrl) {
    d.out.error(
      [...d.path, 'type'],
      '"sse" contradicts "httpUrl", a Streamable HTTP endpoint; write an SSE endpoint as "url"',
    );
    return false;
  }
  // VS Code's "http" tries Streamable HTTP and falls back to SSE, which is what no transport means here.
  if (type === 'sse' || type === 'streamable-http') d.server.transport = type;
  else if (httpUrl) d.server.transport = 'streamable-http';
  return true;
}
