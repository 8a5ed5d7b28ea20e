import { describe, expect, it } from 'vitest';
import {
  createHashingEmbedder,
  embeddableToolText,
  lazyEmbedder,
  WARM_UP_TEXT,
  withQueryCache,
  type Embedder,
} from '../index.js';

/** A real embedder that counts the texts it was asked for. */
function counting(inner: Embedder = createHashingEmbedder()): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return { id: inner.id, dimension: inner.dimension, calls, embed: (t) => (calls.push(t), inner.embed(t)) };
}

describe('withQueryCache', () => {
  it('embeds a repeated query once and evicts the least recently used', async () => {
    const inner = counting();
    const cached = withQueryCache(inner, 2);
    const [a1] = await cached.embed(['read a file']);
    await cached.embed(['send mail']);
    const [a2] = await cached.embed(['read a file']); // a is now the most recent
    await cached.embed(['list issues']); // evicts "send mail"
    await cached.embed(['read a file']);
    await cached.embed(['send mail']);
    expect(a2).toBe(a1);
    expect(inner.calls).toEqual([['read a file'], ['send mail'], ['list issues'], ['send mail']]);
  });

  it('forgets a failed query', async () => {
    let fail = true;
    const inner = counting();
    const flaky: Embedder = {
      ...inner,
      embed: (t) => (fail ? Promise.reject(new Error('down')) : inner.embed(t)),
    };
    const cached = withQueryCache(flaky);
    await expect(cached.embed(['q', 'r'])).rejects.toThrow('down');
    fail = false;
    expect(await cached.embed(['q'])).toHaveLength(1);
    expect(await cached.embed(['r', 'q'])).toHaveLength(2);
    expect(inner.calls).toEqual([['q'], ['r']]);
  });

  it('embeds the uncached texts of a call in one inner call, in order, each once', async () => {
    const inner = counting();
    const cached = withQueryCache(inner, 8);
    const [a] = await cached.embed(['a']);
    const got = await cached.embed(['b', 'a', 'c', 'b']);
    expect(inner.calls).toEqual([['a'], ['b', 'c']]);
    expect(got[1]).toBe(a);
    expect(got[0]).toBe(got[3]);
    const again = await cached.embed(['c', 'b']);
    expect(again).toEqual([got[2], got[0]]);
    expect(inner.calls).toHaveLength(2);
  });

  it('answers a call larger than the cache (its own texts may evict each other)', async () => {
    const inner = counting();
    const cached = withQueryCache(inner, 2);
    await cached.embed(['a']);
    const got = await cached.embed(['a', 'b', 'c', 'd']);
    expect(got).toHaveLength(4);
    expect(got.every((v) => v instanceof Float32Array)).toBe(true);
    expect(inner.calls).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('refuses an inner embedder that returns too few vectors, naming it', async () => {
    const short: Embedder = { id: 'short', dimension: 8, embed: () => Promise.resolve([]) };
    await expect(withQueryCache(short).embed(['x', 'y'])).rejects.toThrow(
      'the embedder "short" returned 0 vectors for 2 queries',
    );
  });
});

describe('lazyEmbedder', () => {
  it('loads the model once, on the first embed call', async () => {
    let loads = 0;
    const inner = createHashingEmbedder(8);
    const lazy = lazyEmbedder({ id: inner.id, dimension: 8 }, () => (loads++, Promise.resolve(inner)));
    expect(loads).toBe(0);
    await lazy.embed(['a']);
    await lazy.embed(['b']);
    expect(loads).toBe(1);
  });

  it('rejects every call when the model cannot load or is not the one declared', async () => {
    const missing = lazyEmbedder({ id: 'm', dimension: 8 }, () => Promise.reject(new Error('no model')));
    await expect(missing.embed(['a'])).rejects.toThrow('no model');
    await expect(missing.embed(['a'])).rejects.toThrow('no model');
    const other = lazyEmbedder({ id: 'm', dimension: 8 }, () => Promise.resolve(createHashingEmbedder(16)));
    await expect(other.embed(['a'])).rejects.toThrow(
      'the embedder loaded as "hashing-16" (16 values) but was declared as "m" (8); declare what the model is',
    );
  });

  it('loads again after a failed load, so a model that becomes loadable heals', async () => {
    const inner = counting(createHashingEmbedder(8));
    let loads = 0;
    const lazy = lazyEmbedder({ id: inner.id, dimension: 8 }, () =>
      ++loads <= 2 ? Promise.reject(new Error(`load ${loads} failed`)) : Promise.resolve(inner),
    );
    await expect(lazy.warmUp!()).rejects.toThrow('load 1 failed');
    await expect(lazy.embed(['a'])).rejects.toThrow('load 2 failed');
    await lazy.warmUp!();
    await lazy.warmUp!(); // warm already: no second load, no second warm-up embedding
    expect(await lazy.embed(['a'])).toHaveLength(1);
    expect(loads).toBe(3);
    expect(inner.calls).toEqual([[WARM_UP_TEXT], ['a']]);
  });

  it('passes warmUp through the query cache', async () => {
    let warmed = 0;
    const inner: Embedder = { ...createHashingEmbedder(8), warmUp: () => (warmed++, Promise.resolve()) };
    await withQueryCache(inner).warmUp!();
    expect(warmed).toBe(1);
    expect('warmUp' in withQueryCache(createHashingEmbedder(8))).toBe(false);
  });
});

describe('createHashingEmbedder', () => {
  it('gives unit vectors, closer for texts that share words', async () => {
    const [a, b, c] = await createHashingEmbedder().embed(['read files', 'read a file', 'send mail']);
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
  });
});

describe('embeddableToolText', () => {
  it.each([
    [{ name: 'read_file', description: 'Read a file from disk.' }, 'read file: Read a file from disk.'],
    [{ name: 'read_file', description: '读取文件内容' }, 'read file'],
    [{ name: '天气', description: '查询城市天气预报' }, undefined],
  ])('%j -> %j', (doc, text) => {
    expect(embeddableToolText({ key: `s/${doc.name}`, server: 's', ...doc })).toBe(text);
  });
});
