import { readFileSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { quote } from '../../errors.js';
import { detectFormat, type ConfigFormat } from '../formats/detect-format.js';
import { translateForeign } from '../formats/foreign.js';
import { parseText } from '../parse/parse-text.js';
import { isRecord, Problems, type Problem } from '../problems/problems.js';
import type { CarteConfig } from '../schema/schema.js';
import { validateConfig } from '../validate/validate.js';

export interface LoadOptions {
  /** The environment `${env:NAME}` reads (pass `process.env` from the entry point). */
  env: Record<string, string | undefined>;
  /** What `${dataDir}` expands to; using it without one is an error. */
  dataDir?: string;
}

/** The outcome of loading a config: the config when `ok`, and every problem found either way. */
export interface LoadResult {
  ok: boolean;
  config?: CarteConfig;
  /** Each `{path, message}`; `path` is "" for problems with the file as a whole. */
  errors: Problem[];
  warnings: Problem[];
  path: string;
  format: ConfigFormat;
}

/** Parses, validates and expands config text; `path` picks YAML or JSON by its extension. */
export function parseConfigText(text: string, opts: LoadOptions & { path: string }): LoadResult {
  const out = new Problems();
  const { path } = opts;
  const parsed = parseText(text, path, out);
  const format = parsed.ok ? detectFormat(parsed.value, path) : 'carte';
  let config: CarteConfig | undefined;
  if (parsed.ok) {
    const base = {
      env: opts.env,
      dataDir: opts.dataDir,
      configDir: isAbsolute(path) ? dirname(path) : undefined,
      configPath: isAbsolute(path) ? path : undefined,
    };
    if (format === 'carte' || !isRecord(parsed.value)) config = validateConfig(parsed.value, base, out);
    else {
      const t = translateForeign(parsed.value, { format, ...base }, out);
      config = validateConfig(t.doc, { ...base, writtenIds: t.writtenIds }, out.withRemap(t.remap));
    }
  }
  const ok = config !== undefined && out.errors.length === 0;
  return { ok, ...(ok ? { config } : {}), errors: out.errors, warnings: out.warnings, path, format };
}

/** Reads and loads a config file; a missing or unreadable file is an error problem, not a throw. */
export function loadConfigFile(path: string, opts: LoadOptions): LoadResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const message = readFailure(path, (err as NodeJS.ErrnoException).code);
    return { ok: false, errors: [{ path: '', message }], warnings: [], path, format: 'carte' };
  }
  return parseConfigText(text, { ...opts, path });
}

function readFailure(path: string, code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return `config file ${quote(path, 200)} does not exist`;
    case 'EISDIR':
      return `config file ${quote(path, 200)} is a directory`;
    case 'EACCES':
    case 'EPERM':
      return `config file ${quote(path, 200)} cannot be read: permission denied`;
    default:
      return `config file ${quote(path, 200)} cannot be read (${code ?? 'unknown error'})`;
  }
}
