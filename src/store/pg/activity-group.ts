// Group commit of audit rows on PostgreSQL, as SQLite groups them (../sqlite/group-commit.ts): the
// calls that begin (or finish) in one turn of the event loop share one statement, so a call's two
// audit writes cost 2/k round trips instead of two (bench:load part pg: the round trips, not the
// rows, are what a call on PostgreSQL pays). One statement is in flight at a time: the writes
// asked for while it runs wait for it and go together in the next one, so the busier the gateway,
// the larger the groups (a quiet one still writes at once). Each promise settles once its
// statement committed. If a grouped statement fails, each write runs alone, so one bad row fails
// only its own caller.
import { OPEN_OUTCOMES, type ActivityOutcome } from '../sqlite/activity-repo.js';
import type { Queryable } from './db.js';

/**
 * How long the next group waits for a statement in flight (ms). A grouped statement takes about a
 * millisecond (bench:load part pg); one still running after this is stuck, not busy.
 */
export const STALL_MS = 200;

/** One turn's writes of one kind, and the statement that writes them all. */
export class TurnGroup<In, Out> {
  private queue: { input: In; resolve: (v: Out) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;
  /** The statement in flight, until it settles or stalls. */
  private writing: Promise<void> | undefined;

  constructor(
    private readonly writeAll: (inputs: readonly In[]) => Promise<Out[]>,
    private readonly writeOne: (input: In) => Promise<Out>,
  ) {}

  add(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.schedule();
    });
  }

  /** A flush at the end of this turn, unless one is due or a statement is still in flight. */
  private schedule(): void {
    if (this.scheduled || this.writing !== undefined || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const statement = this.flush();
      this.writing = statement;
      const done = () => {
        if (this.writing !== statement) return;
        this.writing = undefined;
        this.schedule();
      };
      // A statement that hangs (a server that stopped answering) must not hold the writes behind
      // it: past STALL_MS the next group goes on another connection, as it would without waiting.
      const stalled = setTimeout(done, STALL_MS);
      stalled.unref();
      void statement.finally(() => {
        clearTimeout(stalled);
        done();
      });
    });
  }

  private async flush(): Promise<void> {
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
  ['subject', 'text'],
  ['client', 'text'],
  ['parent_id', 'bigint'],
  ['owner', 'text'],
] as const;

/** A begun row's values (BEGIN_COLUMNS order), or a finish of a begun row. */
export type TurnWrite = { begin: unknown[] } | { finish: FinishRow };

export interface FinishRow {
  id: number;
  outcome: ActivityOutcome;
  durationMs: number;
  resultBytes: number | null;
  /** A failed call's error message; null keeps the row's. */
  detail: string | null;
}

const NAMES = BEGIN_COLUMNS.map(([n]) => n).join(', ');

/** The INSERT of a group's begun rows, its arrays from parameter `$first` on. */
function insertSql(first: number): string {
  const arrays = BEGIN_COLUMNS.map(([, type], i) => `$${first + i}::${type}[]`).join(', ');
  // The SELECT feeds the rows in order and identities are drawn as rows are inserted, so the ids
  // rise with the order (other writers' ids may fall between them).
  return `INSERT INTO activity (${NAMES})
          SELECT ${NAMES} FROM unnest(${arrays}) WITH ORDINALITY AS t(${NAMES}, ord) ORDER BY ord
          RETURNING id`;
}

/** The UPDATE of a group's finishes, its five arrays from parameter `$first` on. */
function finishSql(first: number): string {
  const [id, outcome, ms, bytes, detail] = [0, 1, 2, 3, 4].map((i) => `$${first + i}`);
  return `UPDATE activity SET outcome = t.outcome, duration_ms = t.duration_ms, result_bytes = t.result_bytes,
                 detail = coalesce(t.detail, CASE WHEN activity.outcome = 'interrupted' THEN NULL ELSE activity.detail END)
          FROM unnest(${id}::bigint[], ${outcome}::text[], ${ms}::float8[], ${bytes}::bigint[], ${detail}::text[])
               AS t(id, outcome, duration_ms, result_bytes, detail)
          WHERE activity.id = t.id AND activity.outcome IN (${OPEN_OUTCOMES})
          RETURNING activity.id`;
}

// Named statements: each connection parses and plans them once. A turn with both kinds sends one
// statement (two data-modifying CTEs: they touch different rows, as a row's finish waits for its
// begin to commit), so a busy gateway pays one round trip a turn, not two.
const INSERT_GROUP = { name: 'carte_activity_insert_group', text: insertSql(1) };
const FINISH_GROUP = { name: 'carte_activity_finish_group', text: finishSql(1) };
const BOTH_GROUP = {
  name: 'carte_activity_turn_group',
  text: `WITH fin AS (${finishSql(BEGIN_COLUMNS.length + 1)}), ins AS (${insertSql(1)})
         SELECT id, true AS begun FROM ins UNION ALL SELECT id, false AS begun FROM fin`,
};

/**
 * Writes one turn's begun rows and finishes in one statement. For each write in order: a begun
 * row's id, or whether a finished row's `started` row was there.
 */
export async function writeTurn(q: Queryable, writes: readonly TurnWrite[]): Promise<(number | boolean)[]> {
  const begins: unknown[][] = [];
  const finishes: FinishRow[] = [];
  for (const w of writes) {
    if ('begin' in w) begins.push(w.begin);
    else finishes.push(w.finish);
  }
  const beginValues = BEGIN_COLUMNS.map((_, c) => begins.map((r) => r[c]));
  const finishValues = [
    finishes.map((r) => r.id),
    finishes.map((r) => r.outcome),
    finishes.map((r) => r.durationMs),
    finishes.map((r) => r.resultBytes),
    finishes.map((r) => r.detail),
  ];
  const statement = finishes.length === 0 ? INSERT_GROUP : begins.length === 0 ? FINISH_GROUP : BOTH_GROUP;
  const values =
    statement === INSERT_GROUP
      ? beginValues
      : statement === FINISH_GROUP
        ? finishValues
        : [...beginValues, ...finishValues];
  const result = await q.query<{ id: number; begun?: boolean }>({ ...statement, values });
  const ids = result.rows.filter((r) => r.begun ?? statement === INSERT_GROUP).map((r) => r.id);
  ids.sort((a, b) => a - b);
  const done = new Set(result.rows.filter((r) => !(r.begun ?? statement === INSERT_GROUP)).map((r) => r.id));
  let next = 0;
  return writes.map((w) => ('begin' in w ? ids[next++]! : done.has(w.finish.id)));
}
