import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { parseEnv } from 'node:util';
import { quote } from '../../errors.js';
import { expandTemplate, type Expanded, type TemplateContext } from './interpolate.js';

export interface EnvFileContext extends TemplateContext {
  /** Absolute folder of the config file: relative paths start there, `${workspaceFolder}` comes from it. */
  configDir?: string | undefined;
}

export type EnvFileResult = { ok: true; vars: Record<string, string> } | { ok: false; message: string };

/** `${workspaceFolder}`, unless escaped as `$${workspaceFolder}`. */
const WORKSPACE_FOLDER = /(?<!\$)\$\{workspaceFolder\}/g;

/**
 * Reads a VS Code `envFile` (dotenv syntax, as Node's `util.parseEnv` reads it). The path may use
 * `${workspaceFolder}` (the folder holding `.vscode/`), `${env:NAME}` and `${dataDir}`; a relative
 * path is taken from the config file's folder. The values come back escaped (`${` as `$${`), so
 * Carte's own expansion of `env` leaves them exactly as the file has them.
 */
export function readEnvFile(written: string, ctx: EnvFileContext): EnvFileResult {
  const path = resolvePath(written, ctx);
  if (!path.ok) return path;
  let text: string;
  try {
    text = readFileSync(path.value, 'utf8');
  } catch (err) {
    return { ok: false, message: readFailure(path.value, (err as NodeJS.ErrnoException).code) };
  }
  const vars = Object.entries(parseEnv(text)).map(([k, v]) => [k, escapeTemplate(v ?? '')]);
  return { ok: true, vars: Object.fromEntries(vars) as Record<string, string> };
}

function resolvePath(written: string, ctx: EnvFileContext): Expanded {
  let raw = written;
  if (raw.search(WORKSPACE_FOLDER) !== -1) {
    // VS Code's workspace folder is the one holding .vscode/mcp.json; a user-profile mcp.json has none.
    const dir = ctx.configDir;
    if (dir === undefined || basename(dir) !== '.vscode') {
      return {
        ok: false,
        message: `"\${workspaceFolder}" is used but this file is not in a workspace's .vscode folder; use a path relative to the file instead`,
      };
    }
    const folder = escapeTemplate(dirname(dir));
    raw = raw.replace(WORKSPACE_FOLDER, () => folder);
  }
  const expanded = expandTemplate(raw, ctx);
  if (!expanded.ok) return expanded;
  const { value } = expanded;
  if (value.trim() === '') return { ok: false, message: `${quote(written)} expands to an empty path` };
  const absolute = isAbsolute(value) || ctx.configDir === undefined ? value : join(ctx.configDir, value);
  return { ok: true, value: absolute };
}

/** `${` becomes `$${`, which expands back to `${`: the text stays literal. */
function escapeTemplate(text: string): string {
  return text.replaceAll('${', () => '$${'); // a function: in a replacement string "$$" means "$"
}

function readFailure(path: string, code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return `env file ${quote(path, 200)} does not exist`;
    case 'EISDIR':
      return `env file ${quote(path, 200)} is a directory`;
    case 'EACCES':
    case 'EPERM':
      return `env file ${quote(path, 200)} cannot be read: permission denied`;
    default:
      return `env file ${quote(path, 200)} cannot be read (${code ?? 'unknown error'})`;
  }
}
