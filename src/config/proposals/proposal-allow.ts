import type { RegistrationConfig } from '../schema/schema.js';

/** `registration.allow`: commands, packages and hosts approved without a person. */
export type AllowList = RegistrationConfig['allow'];

/** Which allow entry let a proposal in, for the message that says so. */
export interface AllowMatch {
  list: 'commands' | 'packages' | 'hosts';
  pattern: string;
}

/** A proposed server as written: only the fields the allowlist reads. */
export interface AllowInput {
  command?: unknown;
  args?: unknown;
  url?: unknown;
}

const TEMPLATE = /\$\{/;

/**
 * The allow entry a proposal matches, or undefined. A stdio server matches by its command's
 * basename (`commands`) or, for a package runner, when every package it would fetch matches
 * `packages`; a remote one by its URL's host (`hosts`, https only, or http to a loopback host).
 * Anything uncertain (a template in the command, an unknown flag, a registry override) matches nothing.
 */
export function matchesAllow(server: AllowInput, allow: AllowList): AllowMatch | undefined {
  if (typeof server.command === 'string') {
    const args = Array.isArray(server.args) ? server.args.filter((a) => typeof a === 'string') : [];
    const command = server.command;
    if (TEMPLATE.test(command)) return undefined;
    const name = commandName(command);
    const byCommand = allow.commands.find((p) =>
      globMatch(p, p.includes('/') || p.includes('\\') ? command : name),
    );
    if (byCommand !== undefined) return { list: 'commands', pattern: byCommand };
    const packages = packagesOf(name, args);
    if (packages === undefined || packages.length === 0) return undefined;
    const patterns = packages.map((pkg) => allow.packages.find((p) => packageMatch(p, pkg)));
    if (patterns.some((p) => p === undefined)) return undefined;
    return { list: 'packages', pattern: patterns[0]! };
  }
  if (typeof server.url === 'string') {
    const host = hostOf(server.url);
    if (host === undefined) return undefined;
    const byHost = allow.hosts.find((p) =>
      globMatch(p.toLowerCase(), p.includes(':') ? host.withPort : host.name),
    );
    return byHost === undefined ? undefined : { list: 'hosts', pattern: byHost };
  }
  return undefined;
}

/** A command's basename without a Windows extension: `/usr/bin/node.exe` -> `node`. */
export function commandName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(exe|cmd|bat|ps1)$/i, '');
}

/** `*` any run of characters, `?` one; the whole value must match. */
export function globMatch(pattern: string, value: string): boolean {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${body}$`, 's').test(value);
}

/** A package matches on its name, or on name@version when the pattern names a version. */
function packageMatch(pattern: string, pkg: Package): boolean {
  const hasVersion = pattern.lastIndexOf('@') > 0 || pattern.includes(':');
  return globMatch(pattern, hasVersion ? pkg.spec : pkg.name);
}

interface Package {
  /** The registry name: `@scope/name`, `name`, or a normalised docker image without tag. */
  name: string;
  /** As written, with its version or tag. */
  spec: string;
}

/** A runner's flags: those taking a value, those without, and those naming extra packages. */
interface Runner {
  valued: readonly string[];
  bare: readonly string[];
  /** Flags whose value is a package (`-p`, `--with`); the packages then are these plus any `from`. */
  packageFlags: readonly string[];
  /** Flags whose value replaces the positional package (`uvx --from`, `pipx run --spec`). */
  fromFlags: readonly string[];
  parse: (spec: string) => Package | undefined;
  /** With package flags, is the first positional a bin name (npx -p) rather than a package? */
  positionalIsBin: boolean;
  /** Refuse these `--flag=value` pairs (docker: host namespaces). */
  unsafe?: (flag: string, value: string) => boolean;
}

const NPM: Runner = {
  valued: ['--cache', '--prefix', '--userconfig', '--loglevel', '-w', '--workspace'],
  bare: [
    '-y',
    '--yes',
    '--no',
    '--no-install',
    '-q',
    '--quiet',
    '--silent',
    '--prefer-offline',
    '--prefer-online',
  ],
  packageFlags: ['-p', '--package'],
  fromFlags: [],
  parse: npmPackage,
  positionalIsBin: true,
};

const UV: Runner = {
  valued: [
    '--python',
    '-p',
    '--python-preference',
    '--cache-dir',
    '--refresh-package',
    '--reinstall-package',
  ],
  bare: [
    '-q',
    '--quiet',
    '--isolated',
    '--offline',
    '--refresh',
    '--no-cache',
    '-n',
    '--reinstall',
    '--managed-python',
  ],
  packageFlags: ['--with', '-w'],
  fromFlags: ['--from'],
  parse: pythonPackage,
  positionalIsBin: false,
};

const PIPX: Runner = {
  valued: ['--python'],
  bare: ['--no-cache', '-q', '--quiet', '-v', '--verbose', '--system-site-packages'],
  packageFlags: [],
  fromFlags: ['--spec'],
  parse: pythonPackage,
  positionalIsBin: false,
};

const DOCKER: Runner = {
  valued: [
    '-e',
    '--env',
    '-v',
    '--volume',
    '--mount',
    '--name',
    '-w',
    '--workdir',
    '-u',
    '--user',
    '-l',
    '--label',
    '--platform',
    '-m',
    '--memory',
    '--cpus',
    '--pull',
    '--restart',
    '--add-host',
    '--hostname',
    '-h',
    '--network',
    '--net',
    '--stop-timeout',
    '--shm-size',
    '--tmpfs',
    '--ulimit',
    '--dns',
    '--expose',
    '-p',
    '--publish',
  ],
  bare: [
    '-i',
    '--interactive',
    '-t',
    '--tty',
    '-it',
    '-ti',
    '--rm',
    '-d',
    '--detach',
    '--init',
    '--read-only',
    '-q',
    '--quiet',
  ],
  packageFlags: [],
  fromFlags: [],
  parse: dockerImage,
  positionalIsBin: false,
  unsafe: (flag, value) =>
    (['-v', '--volume', '--mount'].includes(flag) &&
      /docker\.sock|^\/(:|$)|(src|source)=\/(,|$)/.test(value)) ||
    (['--network', '--net'].includes(flag) && value === 'host'),
};

/**
 * The packages a package runner would fetch (npx, npm exec, bunx, pnpm dlx, uvx, pipx run, docker
 * or podman run), [] for any other command, undefined when the args cannot be read with certainty.
 */
export function packagesOf(name: string, args: readonly string[]): Package[] | undefined {
  const [first, ...rest] = args;
  if (name === 'npx' || name === 'bunx') return readRunner(NPM, args);
  if (name === 'npm' && (first === 'exec' || first === 'x')) return readRunner(NPM, rest);
  if (name === 'pnpm' && first === 'dlx') return readRunner(NPM, rest);
  if (name === 'uvx') return readRunner(UV, args);
  if (name === 'uv' && first === 'tool' && rest[0] === 'run') return readRunner(UV, rest.slice(1));
  if (name === 'pipx' && first === 'run') return readRunner(PIPX, rest);
  if ((name === 'docker' || name === 'podman') && first === 'run') return readRunner(DOCKER, rest);
  if ((name === 'docker' || name === 'podman') && first === 'container' && rest[0] === 'run')
    return readRunner(DOCKER, rest.slice(1));
  return [];
}

/** Reads flags up to the first positional; any flag the runner does not know makes it unreadable. */
function readRunner(runner: Runner, args: readonly string[]): Package[] | undefined {
  const extra: string[] = [];
  let from: string | undefined;
  let positional: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional = args[i + 1];
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional = arg;
      break;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    const inline = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : undefined;
    if (runner.bare.includes(flag) && inline === undefined) continue;
    const takesValue = [...runner.valued, ...runner.packageFlags, ...runner.fromFlags].includes(flag);
    if (!takesValue) return undefined;
    const value = inline ?? args[++i];
    if (value === undefined || runner.unsafe?.(flag, value)) return undefined;
    if (runner.packageFlags.includes(flag)) extra.push(value);
    if (runner.fromFlags.includes(flag)) from = value;
  }
  const specs = [...extra, ...(from !== undefined ? [from] : [])];
  const bin = runner.positionalIsBin && specs.length > 0;
  if (!bin && from === undefined) {
    if (positional === undefined) return undefined;
    specs.push(positional);
  }
  const packages = specs.map(runner.parse);
  return packages.every((p) => p !== undefined) ? packages : undefined;
}

const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** `@scope/name@1.2` -> `@scope/name`; paths, URLs, git and `npm:` aliases are not registry names. */
function npmPackage(spec: string): Package | undefined {
  const at = spec.indexOf('@', 1);
  const name = at > 0 ? spec.slice(0, at) : spec;
  const version = at > 0 ? spec.slice(at + 1) : '';
  if (!NPM_NAME.test(name) || /[:/\\]/.test(version)) return undefined;
  return { name, spec };
}

const PY_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** `name[extra]==1.0` or `name@1.0` -> `name` (lower case); direct references are not registry names. */
function pythonPackage(spec: string): Package | undefined {
  if (/:\/\/|\s@\s|^[./~]/.test(spec)) return undefined;
  const name = spec.split(/[[=<>!~@;\s]/)[0] ?? '';
  if (!PY_NAME.test(name)) return undefined;
  return { name: name.toLowerCase().replace(/[._]+/g, '-'), spec };
}

/** `docker.io/library/node:20@sha256:...` -> `node`; `ghcr.io/x/y:1` -> `ghcr.io/x/y`. */
function dockerImage(spec: string): Package | undefined {
  if (!/^[a-z0-9][a-z0-9._/:@-]*$/i.test(spec)) return undefined;
  let name = spec.split('@')[0]!;
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) name = name.slice(0, colon);
  name = name.replace(/^(docker\.io|index\.docker\.io)\//, '').replace(/^library\//, '');
  return { name, spec };
}

interface Host {
  name: string;
  withPort: string;
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The host of an https URL (http only for loopback), lower case; undefined when it has a template. */
function hostOf(url: string): Host | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1];
  if (authority === undefined || authority.includes('${')) return undefined;
  let u: URL;
  try {
    u = new URL(url.replace(/\$\{[^}]*\}/g, 'x')); // a template in the path or query is fine
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.includes(u.hostname))) return undefined;
  return { name: u.hostname, withPort: u.port ? `${u.hostname}:${u.port}` : u.hostname };
}
