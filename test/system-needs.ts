// What a test needs from the machine beyond npm: a Debian program (xmllint, haproxy, chromium...)
// or a package's data file. Outside CI a missing one skips the tests that need it, loudly, naming
// the package; under CI (`process.env.CI` set) it fails instead: `.ci/run` installs every such
// package, so a missing one there is a broken CI, not a reason to skip.
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** One thing a test needs: a program (a name on PATH, or an absolute path) or a file, and its Debian package. */
export interface SystemNeed {
  /** What is missing, as the skip line names it: `xmllint`, `/usr/sbin/haproxy`. */
  readonly what: string;
  /** The Debian package that brings it (`apt-get install <pkg>`). */
  readonly pkg: string;
  readonly present: () => boolean;
}

/** A program, by name (searched on PATH) or by absolute path, that must be executable. */
export function program(name: string, pkg: string): SystemNeed {
  return { what: name, pkg, present: () => findProgram(name, process.env.PATH) !== undefined };
}

/** A file a package installs (a dictionary, a bidix): it must be readable. */
export function dataFile(path: string, pkg: string): SystemNeed {
  return { what: path, pkg, present: () => canAccess(path, constants.R_OK) };
}

/** Where `name` runs from: itself if absolute, else the first executable of that name on `path`. */
export function findProgram(name: string, path: string | undefined): string | undefined {
  if (isAbsolute(name)) return canAccess(name, constants.X_OK) ? name : undefined;
  for (const dir of (path ?? '').split(delimiter).filter(Boolean))
    if (canAccess(join(dir, name), constants.X_OK)) return join(dir, name);
  return undefined;
}

function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether every need of the test file `fileUrl` (its `import.meta.url`) is met. When one is not:
 * outside CI, one loud line on stderr per need and false (skip what needs it); under CI, a failing
 * test naming the package `.ci/run` must install, and false (the tests that need it do not run
 * into ENOENT). Call at the top level of a test file.
 */
export function hasSystem(fileUrl: string, ...needs: SystemNeed[]): boolean {
  const missing = needs.filter((n) => !n.present());
  if (missing.length === 0) return true;
  const file = relative(ROOT, fileURLToPath(fileUrl));
  for (const need of missing) {
    const line = `${need.what} is missing (apt-get install ${need.pkg})`;
    if (process.env.CI)
      it(`has ${need.what} (Debian package ${need.pkg})`, () => {
        throw new Error(`${file}: ${line}; .ci/run must install ${need.pkg}`);
      });
    else console.warn(`\n*** SKIPPED ${file}: ${line} ***\n`);
  }
  return false;
}
