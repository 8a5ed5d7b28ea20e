// Group commit of audit rows on PostgreSQL, as SQLite groups them (../sqlite/group-commit.ts): the
// calls that begin (or finish) in one turn of the event loop share one statement, so a call's two
// audit writes cost 2/k round trips instead of two (bench:load part pg: the round trips, not the
// rows, are what a call on PostgreSQL pays). Each promise settles once its statement committed.
// If a grouped statement fails, each write runs alone, so one bad row fails only its own caller.
import type { Queryable } from './db.js';

/** One turn's writes of one kind, and the statement that writes them all. */
export class TurnGroup<In, Out> {
  private queue: { input: In; resolve: (v: Out) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly writeAll: (inputs: readonly In[]) => Promise<Out[]>,
    private readonly writeOne: (input: In) => Promise<Out>,
  ) {}

  add(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    if (queue.length === 1) return this.alone(queue[0]!);
    let outs: Out[];
    try {
      outs = await this.writeAll(queue.map((p) => p.input));
    } catch {
      await Promise.all(queue.map((p) => this.alone(p)));
      return;
    }
    queue.forEach((p, i) => p.resolve(outs[i]!));
  }

  private async alone(p: (typeof this.queue)[number]): Promise<void> {
    try {
      p.resolve(await this.writeOne(p.input));
    } catch (err) {
      p.reject(err);
    }
  }
}

/** The columns of a begun row, in INSERT order, with their PostgreSQL array types. */
const BEGIN_COLUMNS = [
  ['at', 'bigint'],
  ['kind', 'text'],
  ['key', 'text'],
  ['server', 'text'],
  ['outcome', 'text'],
  ['duration_ms', 'float8'],
  ['result_bytes', 'bigint'],
  ['request_id', 'text'],
  ['token_id', 'text'],
  ['project', 'text'],
  ['args_digest', 'text'],
  ['args', 'text'],
  ['detail', 'text'],
] as const;

/**
 * Inserts rows (values in BEGIN_COLUMNS order) in one statement; their ids in the rows' order.
 * The SELECT feeds the rows in order and identities are drawn as rows are inserted, so the ids
 * rise with the order (other writers' ids may fall between them).
 */
export async function insertRows(q: Queryable, rows: readonly unknown[][]): Promise<number[]> {
  const names = BEGIN_COLUMNS.map(([n]) => n).join(', ');
  const arrays = BEGIN_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  const result = await q.query<{ id: number }>({
    name: 'carte_activity_insert_group',
    text: `INSERT INTO activity (${names})
           SELECT ${names} FROM unnest(${arrays}) WITH ORDINALITY AS t(${names}, ord) ORDER BY ord
           RETURNING id`,
    values: BEGIN_COLUMNS.map((_, c) => rows.map((r) => r[c])),
  });
  return result.rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Finishes begun rows in one statement; for each, whether its `started` row was there. */
export async function finishRows(
  q: Queryable,
  rows: readonly { id: number; outcome: string; durationMs: number; resultBytes: number | null }[],
): Promise<boolean[]> {
  const result = await q.query<{ id: number }>({
    name: 'carte_activity_finish_group',
    text: `UPDATE activity SET outcome = t.outcome, duration_ms = t.duration_ms, result_bytes = t.result_bytes
           FROM unnest($1::bigint[], $2::text[], $3::float8[], $4::bigint[]) AS t(id, outcome, duration_ms, result_bytes)
           WHERE activity.id = t.id AND activity.outcome = 'started'
           RETURNING activity.id`,
    values: [
      rows.map((r) => r.id),
      rows.map((r) => r.outcome),
      rows.map((r) => r.durationMs),
      rows.map((r) => r.resultBytes),
    ],
  });
  const done = new Set(result.rows.map((r) => r.id));
  return rows.map((r) => done.has(r.id));
}
