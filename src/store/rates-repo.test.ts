// Rate-limit counters (issue 40, item 5): hits per key per fixed window, blocks until a time. On
// PostgreSQL two stores (two replicas) count together, exactly, however they interleave.
import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from './test-engines.js';

const W = 1_800_000_000_000; // a window's start, epoch ms

describe.each(testEngines(afterEach))('RatesRepo on $name', (engine) => {
  it('counts hits per key and window; a new window starts from zero', async () => {
    const { rates } = await engine.open();
    const now = W + 5;
    expect(await rates.hit('token:a', W, { now })).toEqual({ hits: 1, blockedUntil: null });
    expect(await rates.hit('token:a', W, { now })).toEqual({ hits: 2, blockedUntil: null });
    expect(await rates.hit('token:b', W, { now })).toEqual({ hits: 1, blockedUntil: null });
    expect((await rates.hit('token:a', W + 60_000, { now: now + 60_000 })).hits).toBe(1);
  });

  it("counts a second key (a project's total) in the same step", async () => {
    const { rates } = await engine.open();
    const now = W + 5;
    const also = 'total:web';
    expect(await rates.hit('token:a', W, { also, now })).toEqual({
      hits: 1,
      alsoHits: 1,
      blockedUntil: null,
    });
    expect(await rates.hit('token:b', W, { also, now })).toEqual({
      hits: 1,
      alsoHits: 2,
      blockedUntil: null,
    });
    expect(await rates.hit('token:a', W, { also, now })).toEqual({
      hits: 2,
      alsoHits: 3,
      blockedUntil: null,
    });
    expect((await rates.hit('token:a', W, { now })).hits).toBe(3); // without: the total stays
    expect((await rates.hit('token:c', W + 60_000, { also, now: now + 60_000 })).alsoHits).toBe(1);
  });

  it('reads a block with the hit until it ends, keeps the later of two, and prunes', async () => {
    const { rates } = await engine.open();
    await rates.block('auth:10.0.0.9', W + 60_000);
    await rates.block('auth:10.0.0.9', W + 30_000); // earlier: the later one stays
    const blockKey = 'auth:10.0.0.9';
    expect(await rates.hit('fail:10.0.0.9', W, { blockKey, now: W + 1 })).toEqual({
      hits: 1,
      blockedUntil: W + 60_000,
    });
    expect(await rates.blockedUntil(blockKey, W + 59_999)).toBe(W + 60_000);
    expect(await rates.blockedUntil(blockKey, W + 60_000)).toBeNull();
    expect(await rates.prune(W + 60_001)).toBe(2); // the window and the block
    expect((await rates.hit('fail:10.0.0.9', W, { now: W + 1 })).hits).toBe(1);
  });

  it.runIf(engine.name === 'postgres')('two replicas count one key together, exactly', async () => {
    const a = await engine.open();
    const b = await engine.reopen(a);
    const hits = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).rates.hit('token:shared', W, { now: W })),
    );
    expect(hits.map((h) => h.hits).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it.runIf(engine.name === 'postgres')(
    "two replicas count a project's total together across its tokens, exactly",
    async () => {
      const a = await engine.open();
      const b = await engine.reopen(a);
      const hits = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? a : b).rates.hit(`token:${i % 4}`, W, { also: 'total:web', now: W }),
        ),
      );
      expect(hits.map((h) => h.alsoHits).sort((x, y) => x! - y!)).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
    },
  );
});
