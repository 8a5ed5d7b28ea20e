import { describe, expect, it, vi } from 'vitest';
import { STALL_MS, TurnGroup } from './activity-group.js';

/** A TurnGroup whose statements wait until the test lets them commit, recording each group. */
function heldGroup() {
  const groups: number[][] = [];
  const pending: (() => void)[] = [];
  const wait = () => new Promise<void>((resolve) => pending.push(resolve));
  const group = new TurnGroup<number, number>(
    async (inputs) => {
      groups.push([...inputs]);
      await wait();
      return inputs.map((n) => n * 10);
    },
    async (input) => {
      groups.push([input]);
      await wait();
      return input * 10;
    },
  );
  const commitNext = async () => {
    pending.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { group, groups, pending, commitNext };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('TurnGroup', () => {
  it('one statement in flight: the writes asked for meanwhile go together in the next one', async () => {
    const { group, groups, commitNext } = heldGroup();
    const first = group.add(1);
    await turn();
    expect(groups).toEqual([[1]]); // a quiet gateway writes at once
    const later = [2, 3, 4].map((n) => group.add(n));
    await turn();
    await turn();
    expect(groups).toEqual([[1]]); // still waiting for the first statement
    await commitNext();
    expect(await first).toBe(10);
    await turn();
    expect(groups).toEqual([[1], [2, 3, 4]]);
    await commitNext();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it('a statement that hangs holds the next group for STALL_MS only', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { group, groups, pending } = heldGroup();
      void group.add(1); // never committed
      await turn();
      const next = group.add(2);
      await turn();
      expect(groups).toEqual([[1]]);
      vi.advanceTimersByTime(STALL_MS);
      await turn();
      expect(groups).toEqual([[1], [2]]);
      pending[1]!();
      expect(await next).toBe(20);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failed group runs each write alone, so only the bad one fails, and the queue goes on', async () => {
    const group = new TurnGroup<number, number>(
      async () => Promise.reject(new Error('one row is bad')),
      async (n) => (n < 0 ? Promise.reject(new Error(`bad ${n}`)) : n),
    );
    const results = await Promise.allSettled([1, -2, 3].map((n) => group.add(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await group.add(4)).toBe(4);
  });
});
