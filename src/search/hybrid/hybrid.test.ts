import { describe, expect, it } from 'vitest';
import {
  analyseCatalog,
  buildHybridIndex,
  RANKER_DEFAULTS,
  tokenize,
  type Embedder,
  type SearchDoc,
} from '../index.js';

/**
 * A real, if crude, embedder: hashed bag of words. Words map to fixed pseudo-random directions,
 * so texts sharing words are close. Deterministic and instant, unlike a neural model.
 */
function hashingEmbedder(dimension = 64): Embedder & { calls: string[][] } {
  const direction = (word: string): Float32Array => {
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    return Float32Array.from({ length: dimension }, (_, i) => Math.sin(h * (i + 1)));
  };
  const calls: string[][] = [];
  return {
    id: 'hashing-test',
    dimension,
    calls,
    embed(texts) {
      calls.push(texts);
      return Promise.resolve(
        texts.map((t) => {
          const v = new Float32Array(dimension);
          for (const w of tokenize(t)) direction(w).forEach((x, i) => (v[i]! += x));
          const norm = Math.hypot(...v) || 1;
          return v.map((x) => x / norm);
        }),
      );
    },
  };
}

const doc = (server: string, name: string, description: string): SearchDoc => ({
  key: `${server}/${name}`,
  server,
  name,
  description,
});
const DOCS = [
  doc('weather', 'get_forecast', 'Weather forecast for a city.'),
  doc('fs', 'read_file', 'Read a file from disk.'),
  doc('fs', 'write_file', 'Write a file to disk.'),
  doc('amap', 'maps_weather', '根据城市名称查询天气'),
  doc('misc', 'AND', 'A logic gate.'),
];

describe('buildHybridIndex', () => {
  it("answers the same from a given lexical state (the lexical index's) as from its own analysis", async () => {
    const embedder = hashingEmbedder();
    const own = await buildHybridIndex(DOCS, { embedder });
    const given = await buildHybridIndex(DOCS, {
      embedder,
      lexicalState: analyseCatalog(DOCS, RANKER_DEFAULTS),
    });
    for (const q of ['weather forecast', 'read a file', ['read a file', 'write a file'], '天气', 'AND']) {
      expect(await given.search(q)).toEqual(await own.search(q));
    }
  });

  it('embeds the tools once at build and one text per query', async () => {
    const embedder = hashingEmbedder();
    const index = await buildHybridIndex(DOCS, { embedder });
    expect(index.size).toBe(DOCS.length);
    expect(embedder.calls).toHaveLength(1);
    await index.search('forecast for a city');
    expect(embedder.calls[1]).toEqual(['forecast for a city']);
    // A multi-step search embeds the joined request and every step in one call.
    await index.search(['read a file', 'weather forecast', 'read a file']);
    expect(embedder.calls.slice(2)).toEqual([
      ['read a file weather forecast read a file', 'read a file', 'weather forecast'],
    ]);
  });

  it('ranks by fused evidence and keeps the exact-name guarantee', async () => {
    const index = await buildHybridIndex(DOCS, { embedder: hashingEmbedder() });
    expect((await index.search('weather forecast city'))[0]!.key).toBe('weather/get_forecast');
    expect((await index.search('AND'))[0]).toEqual({ key: 'misc/AND', relevance: 1 });
    expect(await index.search('  ')).toEqual([]);
  });

  it('leaves CJK queries to the lexical side (no embedding call)', async () => {
    const embedder = hashingEmbedder();
    const index = await buildHybridIndex(DOCS, { embedder });
    expect((await index.search('查询天气'))[0]!.key).toBe('amap/maps_weather');
    expect(embedder.calls).toHaveLength(1);
  });

  it('merges a query array and applies filters', async () => {
    const index = await buildHybridIndex(DOCS, { embedder: hashingEmbedder() });
    const keys = (await index.search(['weather forecast', 'write a file'], { limit: 2 })).map((h) => h.key);
    expect(keys.sort()).toEqual(['fs/write_file', 'weather/get_forecast']);
    const fsOnly = await index.search('file', { server: 'fs', exclude: ['write'] });
    expect(fsOnly.map((h) => h.key)).toEqual(['fs/read_file']);
  });

  it('lists what filters alone select, as the lexical index does, without embedding a query', async () => {
    const embedder = hashingEmbedder();
    const index = await buildHybridIndex(DOCS, { embedder });
    expect(await index.search('', { server: 'fs' })).toEqual([
      { key: 'fs/read_file', relevance: 1 },
      { key: 'fs/write_file', relevance: 1 },
    ]);
    expect(await index.search('', {})).toEqual([]);
    expect(embedder.calls).toHaveLength(1);
  });

  it('uses given vectors and refuses a count mismatch with the fix in the message', async () => {
    const embedder = hashingEmbedder();
    const vectors = await embedder.embed(DOCS.map((d) => d.name));
    await buildHybridIndex(DOCS, { embedder, vectors });
    expect(embedder.calls).toHaveLength(1);
    await expect(buildHybridIndex(DOCS, { embedder, vectors: vectors.slice(1) })).rejects.toThrow(
      'buildHybridIndex: 4 vectors for 5 tools; embed every tool, in order',
    );
  });
});
