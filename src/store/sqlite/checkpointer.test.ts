// Background WAL checkpoints (checkpointer.ts): a real store file, rows written, and the database
// file (which only a checkpoint writes to) watched for the worker's work.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/e2e/helpers.js';
import { startCheckpointer } from './checkpointer.js';
import { openStore } from '../index.js';

const ROW = { kind: 'call' as const, key: 'a/b', server: 'a', project: 'default' };

describe('checkpoints on a worker thread', () => {
  it('copy the WAL into the database file while this thread only writes', async () => {
    const path = join(tempDir().dir, 'carte.db');
    const store = await openStore(path);
    const failures: Error[] = [];
    store.checkpointInBackground((err) => failures.push(err));
    const before = statSync(path).size;
    for (let i = 0; i < 2000; i++)
      await store.activity.finish(await store.activity.begin(ROW), { outcome: 'ok', durationMs: 1 });
    // The rows are in the WAL; only a checkpoint grows the database file (the autocheckpoint
    // backstop is 10,000 pages away, and this thread's timer is stopped).
    expect(statSync(path).size).toBe(before);
    // This thread sleeps (no timer of its own can run): only the worker can grow the file meanwhile.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2500);
    expect(statSync(path).size).toBeGreaterThan(before);
    expect(await store.activity.count()).toBe(2000);
    await store.close();
    expect(failures).toEqual([]);
  });

  it('report a worker that cannot start, so the caller checkpoints itself', async () => {
    const failed = new Promise<Error>((resolve) => {
      startCheckpointer(join(tempDir().dir, 'missing.db'), 1000, resolve);
    });
    expect((await failed).message).toMatch(/missing\.db|unable to open|does not exist/i);
  });
});
