import { isAbsolute, resolve } from 'node:path';
import type { ConfigSource } from '../../config/index.js';

/**
 * Node flags for every command line that starts a server (the client snippet, `carte install`'s
 * entry, `npm start`, the unit or agent `carte service install` writes). V8 sizes its young
 * generation when the process starts, so `v8.setFlagsFromString` cannot do it later; capped at
 * 4 MiB per semi-space, a `carte serve` on the 7k-tool catalog rests at 133 MiB instead of 152,
 * at no measured CPU cost (docs/benchmarks.md, `bench:core` (c)).
 */
export const SERVE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** What the client snippet must carry so the client's `carte serve` opens this same catalog. */
export interface SnippetInput {
  /** Node and the CLI entry the client should run. */
  execPath: string;
  bin: string;
  /** The config in use; a demo config needs no flag (it is what a bare `carte serve` loads). */
  configPath: string;
  configSource: ConfigSource;
  /** The user config a client finds with no flag and no CARTE_CONFIG / XDG_CONFIG_HOME in its env. */
  defaultUserConfig: string;
  dataDir: string;
  /** The data dir a client gets with no flag and no CARTE_DATA_DIR / XDG_DATA_HOME in its env. */
  defaultDataDir: string;
  cwd: string;
}

/** A command line: the program and its arguments. */
export interface CommandLine {
  command: string;
  args: string[];
}

/**
 * The `mcpServers` entry that reaches the catalog this process serves. A client starts Carte with
 * its own environment and working directory, so whatever differs from the defaults (a config from
 * a flag, a variable or the working directory, or a user config away from its default place; a
 * data dir from a flag or a variable) is passed as an absolute flag. A client started in a folder
 * holding its own carte.yaml would read that one instead of the user config: see docs/clients.md.
 */
export function clientSnippet(input: SnippetInput): { mcpServers: { carte: CommandLine } } {
  return { mcpServers: { carte: serveCommand(input, 'stdio') } };
}

/**
 * `carte serve` (the client's entry) or `carte serve --http` (the daemon `carte service` keeps
 * running) on this catalog, with the same `--config` and `--data-dir` for both: a service manager
 * starts the daemon with as little of the user's environment as a client gives its entry, and the
 * relays look for the daemon's socket in the data dir their own flags name.
 */
export function serveCommand(input: SnippetInput, face: 'stdio' | 'http'): CommandLine {
  const serve = ['serve', ...(face === 'http' ? ['--http'] : [])];
  return {
    command: input.execPath,
    args: [...SERVE_NODE_FLAGS, input.bin, ...serve, ...locationFlags(input)],
  };
}

/** Any other command (`words`, e.g. `token create ...`) on the same catalog and data dir, without the serve flags. */
export function carteCommand(input: SnippetInput, words: readonly string[]): CommandLine {
  return { command: input.execPath, args: [input.bin, ...words, ...locationFlags(input)] };
}

/** `--config` and `--data-dir` as absolute paths, each only when it differs from what is found without it. */
function locationFlags(input: SnippetInput): string[] {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(input.cwd, p));
  const flags: string[] = [];
  const found = input.configSource === 'user' && abs(input.configPath) === abs(input.defaultUserConfig);
  if (input.configSource !== 'demo' && !found) flags.push('--config', abs(input.configPath));
  if (abs(input.dataDir) !== abs(input.defaultDataDir)) flags.push('--data-dir', abs(input.dataDir));
  return flags;
}

/** A command line as a POSIX shell reads it, after `env` assignments; a word with anything unusual is single-quoted. */
export function shellLine(line: CommandLine, env: Readonly<Record<string, string>> = {}): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`);
  const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
  return [...vars, line.command, ...line.args].map((a, i) => (i < vars.length ? a : quote(a))).join(' ');
}

/**
 * How to run the CLI from a shell on the catalog a client entry reaches: `node`, `bin/carte.js`
 * and the entry's `--config` and `--data-dir`, quoted as `shellLine` quotes them.
 */
export function shellCommand(entry: CommandLine): string {
  const at = entry.args.indexOf('serve');
  return shellLine({ command: 'node', args: [entry.args[at - 1] ?? '', ...entry.args.slice(at + 1)] });
}
