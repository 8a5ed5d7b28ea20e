// Group commit: writes asked for close together share one transaction. A SQLite commit costs the
// same for one row as for sixteen (its locks and WAL frames dominate: 85 µs for a call's two
// commits alone against 11 µs each when sixteen calls share them, on the shared 2-core machine,
// docs/history/benchmarks-history.md "Group commit of audit rows"), and a gateway with many calls in flight
// receives several in one turn of the event loop. A write that expects company waits for the end
// of the turn (setImmediate); a lone one only for the end of the current task (a microtask), so
// one call at a time pays no extra turn. Each write's promise settles only after its transaction
// committed, so what a caller awaits is as durable as an autocommitted statement.
import type { Db } from './sqlite.js';

interface Pending {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private taskFlush = false;
  private readonly runAll: (queue: readonly Pending[]) => unknown[];

  constructor(private readonly db: Db) {
    this.runAll = db.transaction((queue: readonly Pending[]) => queue.map((p) => p.write()));
  }

  /**
   * Runs `write` (synchronous statements) in the next group's transaction; settles after its
   * commit. `wait`: `turn` when other writes are likely this turn (calls in flight), `task` when
   * the write is probably alone (it then shares only with writes of the same task).
   */
  add<T>(write: () => T, wait: 'turn' | 'task' = 'turn'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (wait === 'turn') this.scheduled ??= setImmediate(() => this.flush());
      else if (!this.taskFlush) {
        this.taskFlush = true;
        queueMicrotask(() => {
          this.taskFlush = false;
          this.flush();
        });
      }
    });
  }

  /**
   * Commits what is queued now (the store calls this before it closes). If the group's
   * transaction fails, each write runs again alone, so one bad write fails only its own caller,
   * as it would have without grouping.
   */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.db.inTransaction) {
      // a store transaction is open (sqlite-store.ts): commit with it would tie these rows to its
      // fate; wait for the turn after it ends instead
      if (this.queue.length > 0) this.scheduled = setImmediate(() => this.flush());
      return;
    }
    const queue = this.queue;
    this.queue = [];
    if (queue.length === 0) return;
    if (queue.length === 1) return this.settleAlone(queue[0]!);
    let values: unknown[];
    try {
      values = this.runAll(queue);
    } catch {
      for (const p of queue) this.settleAlone(p);
      return;
    }
    queue.forEach((p, i) => p.resolve(values[i]));
  }

  /** One write on its own (autocommitted), settling its caller. */
  private settleAlone(p: Pending): void {
    let value: unknown;
    try {
      value = p.write();
    } catch (err) {
      return p.reject(err);
    }
    p.resolve(value);
  }
}
