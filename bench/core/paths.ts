// Where things are: the project root, the built CLI, the reference servers, temp dirs, flags.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin', 'carte.js');
export const FIXTURES = join(ROOT, 'test', 'fixtures');

/** The entry file of an installed reference server (`@modelcontextprotocol/<pkg>/dist/index.js`). */
export function referenceEntry(pkg: string): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js');
}

/** Fails with the fix when the CLI is not built; warns when src/ is newer than the build. */
export function requireBuild(): string | undefined {
  const main = join(ROOT, 'dist', 'cli', 'main.js');
  if (!existsSync(main))
    throw new Error(`the CLI is not built (${main} is missing): run \`npm run build\` first`);
  const src = statSync(join(ROOT, 'src', 'cli', 'main.ts')).mtimeMs;
  return src > statSync(main).mtimeMs
    ? 'src/cli/main.ts is newer than dist/: the numbers are for the last build'
    : undefined;
}

/** A fresh temp dir that `cleanup` removes. */
export function tempDir(prefix = 'carte-bench-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment for child processes, without the variables that would pick another config or data dir. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.CARTE_CONFIG;
  delete env.CARTE_DATA_DIR;
  delete env.CARTE_LOG_LEVEL;
  return env;
}

/** `--name value` from argv. */
export function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export const hasFlag = (name: string): boolean => process.argv.includes(`--${name}`);

/** A positive number flag, or the default; a bad value stops the run with the flag's name. */
export function numberFlag(name: string, fallback: number): number {
  const raw = flag(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, not "${raw}"`);
  return n;
}
