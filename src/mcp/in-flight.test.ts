// Plain calls in flight: cancellation by id, the connection's abort, and the spare controllers a
// connection reuses only when a call left its signal clean (not aborted, no listener).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PlainCallsInFlight } from './in-flight.js';

const cancel = (id: string | number) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId: id },
});

/** A call that records its signal and ends at once. */
const into = (list: AbortSignal[]) => (s: AbortSignal) => (list.push(s), Promise.resolve());

/** A call that records its signal and ends when told. */
function pending() {
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  const seen: AbortSignal[] = [];
  return { seen, end, fn: (signal: AbortSignal) => (seen.push(signal), done) };
}

describe('PlainCallsInFlight', () => {
  it('reuses the controller of a call that ended clean, and not one whose signal kept a listener', async () => {
    const calls = new PlainCallsInFlight();
    const signals: AbortSignal[] = [];
    await calls.run(1, into(signals));
    await calls.run(2, into(signals));
    expect(signals[1]).toBe(signals[0]);
    await calls.run(3, (s) => {
      signals.push(s);
      s.addEventListener('abort', () => {}); // never removed
      return Promise.resolve();
    });
    await calls.run(4, into(signals));
    expect(signals[2]).toBe(signals[0]);
    expect(signals[3]).not.toBe(signals[2]);
    expect(signals[3]!.aborted).toBe(false);
  });

  it('aborts one call by its id; its controller is not reused', async () => {
    const calls = new PlainCallsInFlight();
    const a = pending();
    const b = pending();
    const runs = [calls.run('a', a.fn), calls.run('b', b.fn)];
    expect(calls.has('a')).toBe(true);
    calls.cancel(cancel('a'));
    expect([a.seen[0]!.aborted, b.seen[0]!.aborted]).toEqual([true, false]);
    a.end();
    b.end();
    await Promise.all(runs);
    const next: AbortSignal[] = [];
    await calls.run('c', into(next));
    expect(next[0]).toBe(b.seen[0]);
    await calls.run('d', into(next));
    expect(next).not.toContain(a.seen[0]);
    expect(next.every((s) => !s.aborted)).toBe(true);
  });

  it("aborts the calls on their connection's signal, and leaves no listener on it", async () => {
    const calls = new PlainCallsInFlight();
    const connection = new AbortController();
    const a = pending();
    const run = calls.run('a', a.fn, connection.signal);
    await calls.run('b', () => Promise.resolve(), connection.signal);
    expect(getEventListeners(connection.signal, 'abort')).toHaveLength(1);
    connection.abort();
    expect(a.seen[0]!.aborted).toBe(true);
    a.end();
    await run;
    expect(getEventListeners(connection.signal, 'abort')).toHaveLength(0);
    const late = pending();
    const lateRun = calls.run('c', late.fn, connection.signal);
    expect(late.seen[0]!.aborted).toBe(true);
    late.end();
    await lateRun;
  });
});
