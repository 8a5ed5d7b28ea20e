// A command that neither spawns nor speaks HTTP loads none of the built-in modules for that, nor
// the MCP client SDK (issue 40, docs/benchmarks.md "CLI start"): merged code once put them back on
// every command's path and cost `carte servers` a third more CPU. Modules, not timings, are checked.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const BIN = resolve(import.meta.dirname, '../../../bin/carte.js');
const tmp = tempDir('carte-start-modules-');
afterAll(() => tmp.cleanup());

/** The built-in modules and files a command loaded, read from the process as it exits. */
function loaded(args: string[]): { builtins: string[]; files: string[] } {
  const out = join(tmp.dir, `loaded-${args.join('-')}.json`);
  const hook = join(tmp.dir, 'hook.mjs');
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`,
  );
  mkdirSync(join(tmp.dir, 'config'), { recursive: true });
  const env = {
    ...process.env,
    CARTE_DATA_DIR: join(tmp.dir, 'data'),
    XDG_CONFIG_HOME: join(tmp.dir, 'config'),
  };
  const run = spawnSync(process.execPath, ['--import', hook, BIN, ...args], {
    env,
    encoding: 'utf8',
    cwd: tmp.dir,
  });
  expect(run.status, run.stderr).toBe(0);
  const list = JSON.parse(readFileSync(out, 'utf8')) as string[];
  return {
    builtins: list.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)),
    files: list,
  };
}

// `net` is not among them: a piped stdout is a net.Socket.
const ON_USE = [
  'child_process',
  'http',
  'https',
  'http2',
  'tls',
  'zlib',
  'dgram',
  'internal/deps/undici/undici',
];

describe('what a command loads', () => {
  it.each([['servers'], ['search', 'read a file']])(
    'carte %s loads no spawning, network or zlib module',
    (...args) => {
      const { builtins } = loaded(args);
      expect(builtins.filter((m) => ON_USE.includes(m))).toEqual([]);
    },
  );
});
