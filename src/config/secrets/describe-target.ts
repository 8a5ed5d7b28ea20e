/** Anything server-shaped: a loaded ServerConfig, or a server as written in a file. */
export interface ServerTargetInput {
  command?: unknown;
  args?: unknown;
  url?: unknown;
  [key: string]: unknown;
}

/** Loaded servers remember the form they were written in, so displays show templates, not secrets. */
const asWritten = new WeakMap<object, ServerTargetInput>();

/**
 * Links a resolved server to the same server before variables were expanded. `${dataDir}` is
 * shown expanded (it is no secret); `${env:NAME}` stays a template.
 */
export function rememberAsWritten(resolved: object, written: ServerTargetInput, dataDir?: string): void {
  const show = (v: unknown): unknown =>
    typeof v === 'string' && dataDir !== undefined ? v.replaceAll('${dataDir}', dataDir) : v;
  const args = Array.isArray(written.args) ? written.args.map(show) : written.args;
  asWritten.set(resolved, { command: show(written.command), args, url: show(written.url) });
}

/** Flags and header names whose values are secrets when written out literally. */
const SECRET_NAME = /token|secret|passw(or)?d|api[-_]?key|auth|credential|cookie|session/i;
const TEMPLATE = /\$\{(env|input):/;
const SHELL_SAFE = /^[\w@%+=:,./\\${}*-]+$/;

/**
 * How a server's target reads to a person: `node /x/y.js --flag` or its URL. Variables show as
 * their `${env:NAME}` template (servers from the loader remember theirs); literal values after
 * secret-looking flags, in secret-looking query parameters and URL passwords show as `***`.
 */
export function describeServerTarget(id: string, server: ServerTargetInput): string {
  const s = asWritten.get(server) ?? server;
  if (typeof s.command === 'string') {
    const args = Array.isArray(s.args) ? s.args.filter((a): a is string => typeof a === 'string') : [];
    return [s.command, ...maskArgs(args)].map(shellWord).join(' ');
  }
  if (typeof s.url === 'string') return maskUrl(s.url);
  return `(server ${JSON.stringify(id)} has no command or url)`;
}

function maskArgs(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    if (TEMPLATE.test(arg)) return arg;
    const prev = args[i - 1];
    if (prev !== undefined && /^--?[\w-]+$/.test(prev) && SECRET_NAME.test(prev)) return '***';
    const flag = /^(--?[\w-]+)=/.exec(arg);
    if (flag) return SECRET_NAME.test(flag[1]!) ? `${flag[1]}=***` : arg;
    const header = /^([\w-]+)\s*:\s+\S/.exec(arg);
    if (header && SECRET_NAME.test(header[1]!)) return `${header[1]}: ***`;
    return /^https?:\/\//i.test(arg) ? maskUrl(arg) : arg;
  });
}

function maskUrl(url: string): string {
  if (TEMPLATE.test(url)) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (u.password !== '') {
    u.password = '***';
    changed = true;
  }
  for (const key of new Set(u.searchParams.keys())) {
    if (!SECRET_NAME.test(key)) continue;
    u.searchParams.set(key, '***');
    changed = true;
  }
  return changed ? u.href : url;
}

function shellWord(word: string): string {
  return SHELL_SAFE.test(word) ? word : `"${word.replaceAll('"', '\\"')}"`;
}
