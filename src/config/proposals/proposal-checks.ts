import { isRecord, Problems, type Problem, type Segment } from '../problems/problems.js';
import { checkDeny } from './proposal-deny.js';
import { checkProposedSandbox } from './proposal-sandbox.js';
import { looksSecretKey, secretKind } from '../secrets/secrets.js';
import { badIdMessage, isServerId } from '../schema/server-ids.js';
import { validateServer } from '../validate/validate-server.js';

export { matchesAllow, type AllowList, type AllowMatch } from './proposal-allow.js';
export { DEFAULT_DENY_RULES } from './proposal-deny.js';

/** Bounds on one proposal: generous for real servers, small enough that none can flood the config. */
export const PROPOSAL_LIMITS = {
  args: 64,
  argBytes: 4096,
  commandBytes: 4096,
  envBytes: 32_768,
  headerBytes: 16_384,
  urlLength: 2048,
  descriptionLength: 1000,
} as const;

/**
 * The keys a proposal may set; the rest (trust, timeouts, limits) are the operator's, set after
 * approval. `sandbox` only as a request for hosts (proposal-sandbox.ts).
 */
const PROPOSABLE = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'transport', 'description', 'sandbox'];

export interface ProposalCheckOptions {
  /** `registration.deny`: patterns refused on top of the built-in rules. */
  deny?: readonly string[] | undefined;
  /** Rewrites `servers.<id>...` paths to the file's own (mcpServers files). */
  remap?: (path: Segment[]) => Segment[];
}

const FIX = 'write it as ${env:NAME} and set NAME in the environment Carte runs in';

/**
 * Checks one proposed server as written (before variables are expanded): the schema, inline
 * secrets, the deny rules and the size limits. Every problem is refusing; messages never quote
 * a value that may be secret.
 */
export function checkProposal(id: string, server: unknown, opts: ProposalCheckOptions = {}): Problem[] {
  const out = new Problems([], [], opts.remap);
  const at: Segment[] = ['servers', id];
  if (!isServerId(id)) out.error(at, badIdMessage(id));
  if (validateServer(server, at, out) === undefined || !isRecord(server)) return out.errors;
  for (const key of Object.keys(server).filter((k) => !PROPOSABLE.includes(k))) {
    out.error([...at, key], `${JSON.stringify(key)} cannot be proposed; a person sets it in the config`);
  }
  checkProposedSandbox(server, at, out);
  const before = out.errors.length;
  checkLimits(server, at, out);
  if (out.errors.length > before) return out.errors; // nothing else is read from an oversized proposal
  checkTemplates(server, at, out);
  checkSecrets(server, at, out);
  checkDeny(server, { at, deny: opts.deny ?? [] }, out);
  return out.errors;
}

/**
 * The secrets written inline in a server as written (env values, headers, arguments, URLs), each
 * as `path: why` under `servers.<id>`; never the secret itself.
 */
export function inlineSecrets(id: string, server: Record<string, unknown>): Problem[] {
  const out = new Problems();
  checkSecrets(server, ['servers', id], out);
  return out.errors.map((p) => ({ ...p, message: p.message.replace(`; ${FIX}`, '') }));
}

function checkLimits(s: Record<string, unknown>, at: Segment[], out: Problems): void {
  const L = PROPOSAL_LIMITS;
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
  const args = strings(s.args);
  if (args.length > L.args)
    out.error([...at, 'args'], `has ${args.length} arguments; a proposal may have at most ${L.args}`);
  args.forEach((a, i) => {
    if (bytes(a) > L.argBytes)
      out.error([...at, 'args', i], `is ${bytes(a)} bytes long; an argument may be at most ${L.argBytes}`);
  });
  for (const key of ['command', 'cwd'] as const) {
    const v = s[key];
    if (typeof v === 'string' && bytes(v) > L.commandBytes)
      out.error([...at, key], `is ${bytes(v)} bytes long; it may be at most ${L.commandBytes}`);
  }
  const sized: [string, number, string][] = [
    ['env', L.envBytes, "a proposal's env"],
    ['headers', L.headerBytes, "a proposal's headers"],
  ];
  for (const [key, max, what] of sized) {
    const total = Object.entries(record(s[key])).reduce((n, [k, v]) => n + bytes(k) + bytes(v) + 2, 0);
    if (total > max) out.error([...at, key], `is ${total} bytes in all; ${what} may be at most ${max}`);
  }
  if (typeof s.url === 'string' && s.url.length > L.urlLength)
    out.error([...at, 'url'], `is ${s.url.length} characters long; a URL may be at most ${L.urlLength}`);
  if (typeof s.description === 'string' && s.description.length > L.descriptionLength) {
    const n = s.description.length;
    out.error([...at, 'description'], `is ${n} characters long; it may be at most ${L.descriptionLength}`);
  }
}

const VARIABLE = /\$\$\{|\$\{([^}]*)(\}?)/g;
const KNOWN_VARIABLE = /^(env:[A-Za-z_][A-Za-z0-9_]*|dataDir)$/;

/** Only `${env:NAME}` and `${dataDir}`; the bad variable is not quoted (it might be a pasted secret). */
function checkTemplates(s: Record<string, unknown>, at: Segment[], out: Problems): void {
  for (const [path, value] of stringFields(s)) {
    for (const m of value.matchAll(VARIABLE)) {
      if (m[0] === '$${' || (m[2] === '}' && KNOWN_VARIABLE.test(m[1] ?? ''))) continue;
      out.error([...at, ...path], 'has an unknown or unclosed variable; use ${env:NAME} or ${dataDir}');
      break;
    }
  }
}

/** The value with its variables removed: what is written literally. */
function literalPart(value: string): string {
  return value.replace(VARIABLE, (m) => (m === '$${' ? '${' : ' '));
}

/** A literal that is more than a flag word, a scheme name or a small number once variables are removed. */
function holdsLiteral(value: string): boolean {
  const rest = literalPart(value)
    .replace(/^\s*(Bearer|Basic|Token|Digest)\b/i, '')
    .trim();
  return rest !== '' && !/^(true|false|yes|no|on|off|none|null|\d{1,6})$/i.test(rest);
}

function checkSecrets(s: Record<string, unknown>, at: Segment[], out: Problems): void {
  const refuse = (path: Segment[], what: string) => out.error([...at, ...path], `${what}; ${FIX}`);
  strings(s.args).forEach((arg, i) => {
    const why = argSecret(arg, strings(s.args)[i - 1]);
    if (why !== undefined) refuse(['args', i], why);
  });
  for (const key of ['env', 'headers'] as const) {
    for (const [name, value] of Object.entries(record(s[key]))) {
      const kind = secretKind(literalPart(value));
      if (kind !== undefined) refuse([key, name], `holds ${kind} written inline`);
      else if (looksSecretKey(name) && holdsLiteral(value))
        refuse([key, name], `${JSON.stringify(name)} names a secret, and its value is written inline`);
      else if (urlSecret(value) !== undefined) refuse([key, name], urlSecret(value)!);
    }
  }
  for (const key of ['command', 'cwd', 'url', 'description'] as const) {
    const value = s[key];
    if (typeof value !== 'string') continue;
    const why = urlSecret(value) ?? inlineKind(value);
    if (why !== undefined) refuse([key], why);
  }
}

function inlineKind(value: string): string | undefined {
  const kind = secretKind(literalPart(value));
  return kind === undefined ? undefined : `holds ${kind} written inline`;
}

/** Why an argument is an inline secret: a secret flag before it or in it, a header, a URL, or its shape (the specific reasons first). */
function argSecret(arg: string, previous: string | undefined): string | undefined {
  const flag = /^(--?[A-Za-z][\w-]*)=(.*)$/s.exec(arg);
  if (flag && looksSecretKey(flag[1]!) && holdsLiteral(flag[2]!))
    return `the value of ${JSON.stringify(flag[1])} is a secret written inline`;
  if (previous !== undefined && /^--?[A-Za-z][\w-]*$/.test(previous) && looksSecretKey(previous))
    if (holdsLiteral(arg)) return `follows ${JSON.stringify(previous)}, so it is a secret written inline`;
  const header = /^([A-Za-z][\w-]*)\s*:\s*(.+)$/s.exec(arg);
  if (header && !arg.includes('://') && looksSecretKey(header[1]!) && holdsLiteral(header[2]!))
    return `is a ${JSON.stringify(header[1])} header with its value written inline`;
  return urlSecret(arg) ?? inlineKind(arg);
}

/** A URL anywhere in the value with a user name, password or secret-named query parameter written inline. */
function urlSecret(value: string): string | undefined {
  for (const m of value.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi)) {
    const url = m[0];
    const userinfo = /^[^:]+:\/\/([^/?#]*)@/.exec(url)?.[1];
    if (userinfo !== undefined && holdsLiteral(userinfo.replaceAll(':', ' ')))
      return 'has a user name or password written inline in a URL';
    const query = url.split('#')[0]!.split('?')[1];
    for (const pair of query?.split('&') ?? []) {
      const [name = '', ...rest] = pair.split('=');
      const paramValue = safeDecode(rest.join('='));
      if (looksSecretKey(safeDecode(name)) && holdsLiteral(paramValue))
        return `has the query parameter ${JSON.stringify(safeDecode(name))} written inline in a URL`;
    }
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/** Every string field as written, with its path inside the server. */
function stringFields(s: Record<string, unknown>): [Segment[], string][] {
  const fields: [Segment[], string][] = [];
  for (const key of ['command', 'cwd', 'url', 'description'])
    if (typeof s[key] === 'string') fields.push([[key], s[key]]);
  strings(s.args).forEach((a, i) => fields.push([['args', i], a]));
  for (const key of ['env', 'headers'])
    for (const [k, v] of Object.entries(record(s[key]))) fields.push([[key, k], v]);
  return fields;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function record(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}
