// No audit row left `started` (issue 40, item 4): the built CLI (`npm run build` first) is SIGKILLed
// during a 30 s tool call; the next start reads the call's row `interrupted`. On SQLite the next
// start finds the dead process's lock file free at once; on PostgreSQL its lease must expire first
// (store.leaseSeconds: 2 here), so the restart is tried again until a start finds it expired.
// Slow: spawns processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { createDatabase, PG_RUN_URL } from '../../src/store/test-engines.js';
import { FIXTURES, ROOT, tempDir } from '../e2e/helpers.js';

const BIN = join(ROOT, 'bin', 'carte.js');
const started = new Set<ChildProcess>();

afterAll(() => {
  for (const child of started) killGroup(child);
});

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL'); // carte and the fixture server it started
  } catch {
    // gone
  }
}

/** A config with the faults fixture, on SQLite in the data dir or on the PostgreSQL database `url`. */
function setup(url: string | undefined) {
  const tmp = tempDir('carte-interrupted-');
  const config = join(tmp.dir, 'carte.yaml');
  const lines = [
    'servers:',
    '  faults:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(join(FIXTURES, 'faults.mjs'))}]`,
  ];
  if (url) lines.push(`store: { url: ${JSON.stringify(url)}, leaseSeconds: 2 }`);
  writeFileSync(config, lines.join('\n') + '\n');
  const flags = ['--config', config, '--data-dir', join(tmp.dir, 'data')];
  return { tmp, flags, store: url ?? join(tmp.dir, 'data', 'carte.db') };
}

/** `carte <args>` to its end: exit code and stdout. */
async function carte(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Waits until the store holds the call's `started` row (the call is in flight). */
async function untilStarted(location: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`carte call exited ${child.exitCode} before its call started`);
    const store = await openStore(location).catch(() => undefined); // not created yet
    const rows = store ? await store.activity.audit({ kinds: ['call'] }) : [];
    await store?.close();
    if (rows.some((r) => r.key === 'faults/slow' && r.outcome === 'started')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const engines = [
  { name: 'sqlite', url: () => Promise.resolve(undefined) },
  ...(PG_RUN_URL ? [{ name: 'postgres', url: createDatabase }] : []),
];

describe.each(engines)('a tool call killed with SIGKILL on $name', ({ name, url }) => {
  it('reads `interrupted` after a restart, with the time of the start that found it', async () => {
    const { tmp, flags, store } = setup(await url());
    try {
      expect((await carte(['sync', ...flags])).code).toBe(0);
      const call = spawn(process.execPath, [BIN, 'call', 'faults/slow', '--args', '{"ms":30000}', ...flags], {
        stdio: 'ignore',
        detached: true,
      });
      started.add(call);
      await untilStarted(store, call);
      const killedAt = Date.now();
      killGroup(call);
      await once(call, 'exit');
      // The restart: any start sweeps. PostgreSQL: again until the 2 s lease has expired.
      let rows: { key: string; outcome: string; detail: string | null }[] = [];
      for (let tries = 0; tries < 60; tries++) {
        const run = await carte(['audit', '--json', '--tool', 'faults/slow', ...flags]);
        expect(run.stderr).toBe('');
        rows = JSON.parse(run.stdout) as typeof rows;
        if (name === 'sqlite' || rows[0]?.outcome !== 'started') break;
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(rows.map((r) => [r.key, r.outcome])).toEqual([['faults/slow', 'interrupted']]);
      expect(Date.parse(rows[0]!.detail!)).toBeGreaterThanOrEqual(killedAt);
      const filtered = await carte(['audit', '--json', '--outcome', 'interrupted', ...flags]);
      expect((JSON.parse(filtered.stdout) as unknown[]).length).toBe(1);
    } finally {
      tmp.cleanup();
    }
  }, 90_000);
});
