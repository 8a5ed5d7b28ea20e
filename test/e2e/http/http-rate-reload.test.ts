// Slow: the built CLI's `carte serve --http` follows its config file's rates (issue 40, item 5):
// the implicit project's http.rate, then none, then a lower one, each applied by the file watch's
// reload to the next request, with no restart. The clock is the real one: a burst starts with at
// least 15 s of its minute left, so a window boundary never falls inside it.
import { afterAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
const CONFIG = join(tmp.dir, 'carte.yaml');
const BASE = ['--data-dir', join(tmp.dir, 'data'), '--config', CONFIG];
const ENV = { ...process.env, CARTE_CONFIG: '' };
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  tmp.cleanup();
});

/** The process's output so far, and a promise of the next match of `pattern` after `from`. */
function watchOutput(proc: ChildProcess) {
  let seen = '';
  const waiters: { pattern: RegExp; from: number; resolve: (m: string) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const m = w.pattern.exec(seen.slice(w.from));
      if (!m) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m[0]);
    }
  };
  proc.stdout!.on('data', (c: Buffer) => ((seen += c.toString('utf8')), check()));
  proc.stderr!.on('data', (c: Buffer) => ((seen += c.toString('utf8')), check()));
  return {
    mark: () => seen.length,
    next: (pattern: RegExp, from: number) =>
      new Promise<string>((resolve, reject) => {
        waiters.push({ pattern, from, resolve });
        check();
        proc.once('exit', (code) => reject(new Error(`carte serve exited (${code}):\n${seen}`)));
      }),
  };
}

function carte(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [BIN, ...BASE, ...args], { cwd: tmp.dir, env: ENV }, (err, out, e) =>
      err ? reject(new Error(`${e}${out}`)) : resolve(out),
    ),
  );
}

/** Waits, if need be, until the current minute has at least 15 s left. */
async function roomInMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}

describe('carte serve --http reloads rates', () => {
  it('applies http.rate as its config file changes: set, removed, set lower', async () => {
    writeFileSync(CONFIG, 'servers: {}\nhttp:\n  rate: 2/m\n');
    const token = (await carte('token', 'create', '--project', 'default', '--scope', 'search')).trim();
    child = spawn(process.execPath, [BIN, ...BASE, 'serve', '--http', '--port', '0'], {
      cwd: tmp.dir,
      env: ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = watchOutput(child);
    const url = new URL(await output.next(/http:\/\/127\.0\.0\.1:\d+/, 0)).origin;
    const statuses = async (n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${url}/api/v1/servers`, { headers: { authorization: `Bearer ${token}` } });
        await res.text();
        out.push(res.status);
      }
      return out;
    };
    const reload = async (text: string) => {
      const from = output.mark();
      writeFileSync(CONFIG, text);
      await output.next(/config reloaded \(the config file changed\)/, from);
    };
    await roomInMinute();
    const minute = Math.floor(Date.now() / 60_000);
    expect(await statuses(3)).toEqual([200, 200, 429]);
    await reload('servers: {}\n');
    expect(await statuses(2)).toEqual([200, 200]); // no limit now
    await roomInMinute();
    await reload('servers: {}\nhttp:\n  rate: 1/m\n');
    // A reload keeps the minute's counts: the 3 counted above (the 2 without a limit were not)
    // are already past 1, unless a new minute has begun since.
    const sameMinute = Math.floor(Date.now() / 60_000) === minute;
    expect(await statuses(2)).toEqual(sameMinute ? [429, 429] : [200, 429]);
  });
});
