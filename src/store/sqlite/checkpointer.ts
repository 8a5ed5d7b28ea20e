// WAL checkpoints on a worker thread with its own connection, for a long-running `carte serve`
// (docs/history/benchmarks-history.md, "How we got here": WAL checkpoints off the event loop).
// A checkpoint's cost
// is mostly its fsyncs: after 2,000 audited calls (~6,300 WAL frames) one PASSIVE checkpoint took 63-84 ms of
// wall time for 8 ms of CPU, and on the main thread every request waited through it once a
// second. A PASSIVE checkpoint from another connection never blocks this one's writers (WAL).
import { createRequire } from 'node:module';
// Built-in modules a command may never need are loaded when used (process.getBuiltinModule), not at
// start: docs/benchmarks.md, "CLI start".

// CommonJS run by `new Worker(..., {eval: true})`: the driver comes by absolute path, so the
// worker needs no file of its own (tests run the TypeScript sources, which a worker cannot load).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.path, { fileMustExist: true });
  db.pragma('busy_timeout = 0');
} catch (err) {
  // The driver's error type does not cross threads with its message: a plain Error does.
  throw new Error(String(err && err.message ? err.message : err));
}
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another checkpoint): next tick.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops the timer and closes the worker's connection (asynchronously; the process need not wait). */
  stop(): void;
}

/**
 * Starts checkpointing `path` every `everyMs` on a worker thread. `onFailure` runs once if the
 * worker cannot start or dies, so the caller can go back to checkpointing on its own thread.
 */
export function startCheckpointer(
  path: string,
  everyMs: number,
  onFailure: (err: Error) => void,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path, everyMs } });
  worker.unref(); // a stopped server exits without waiting for it
  let stopped = false;
  worker.once('error', (err) => {
    if (!stopped) onFailure(err);
  });
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
    },
  };
}
