import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, SCHEMA_VERSION, type Store } from './index.js';
// The migration history itself, to build a store as an older Carte left it.
import { MIGRATIONS } from './sqlite/migrations.js';
import { testEngines, type TestEngine } from './test-engines.js';

const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const MODEL = 'use-lite-512@energetic-ai-0.2.0';

/** The fix a dimension mismatch names: the engine's own shell command. */
function dimensionMessage(engine: TestEngine, store: Store, model: string): string {
  const sqlId = model.replaceAll("'", "''");
  const command =
    engine.name === 'sqlite'
      ? `sqlite3 "${store.path}" "DELETE FROM tool_vectors WHERE model_id = '${sqlId}'"`
      : `psql "${store.path}" -c "DELETE FROM tool_vectors WHERE model_id = '${sqlId}'"`;
  return `the vector cache in "${store.path}" holds 512-dimension vectors for model "${model}" but the embedder gives 384; delete them with store.vectors.clearModel("${model}") or \`${command}\`, then embed again`;
}

describe.each(testEngines(afterEach))('vectors on $name', (engine) => {
  it('reads a whole catalog in one scan: only the hashes asked for, each its own vector', async () => {
    const store = await engine.open();
    const rows = Array.from({ length: 1500 }, (_, i) => ({ hash: `h${i}`, vector: Float32Array.of(i, -i) }));
    await store.vectors.putMany(rows, MODEL, 2);
    await store.vectors.putMany([{ hash: 'h0', vector: Float32Array.of(9, 9) }], 'other-model', 2);
    const asked = [...rows.slice(100).map((r) => r.hash), 'absent'];
    const got = await store.vectors.getMany(asked, MODEL, 2);
    expect([...got.keys()].sort()).toEqual(asked.slice(0, -1).sort());
    expect([...got.get('h1499')!]).toEqual([1499, -1499]);
    got.get('h100')![0] = 42; // its own memory: other vectors and later reads are untouched
    expect([...got.get('h101')!]).toEqual([101, -101]);
    expect([...(await store.vectors.getMany(asked, MODEL, 2)).get('h100')!]).toEqual([100, -100]);
  });

  it('round-trips Float32 values bit for bit, stored as little-endian bytes', async () => {
    const store = await engine.open();
    const v = Float32Array.of(0.1, -0, Number.NaN, Infinity, -Infinity, 1e-45, 3.4028234663852886e38, -1.5);
    await store.vectors.putMany([{ hash: 'h1', vector: v }], MODEL, v.length);
    const got = (await store.vectors.getMany(['h1'], MODEL, v.length)).get('h1');
    expect(got && bytes(got)).toEqual(bytes(v));

    const [{ vector: blob }] = (await engine.sql(store, 'SELECT vector FROM tool_vectors')) as [
      { vector: Buffer },
    ];
    const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
    v.forEach((x, i) => expect(Object.is(view.getFloat32(i * 4, true), x)).toBe(true));
  });

  it('misses on a changed content hash, so only the changed tool is embedded again', async () => {
    const store = await engine.open();
    await store.vectors.putMany([{ hash: 'old', vector: Float32Array.of(1, 0) }], MODEL, 2);
    const got = await store.vectors.getMany(['old', 'new'], MODEL, 2);
    expect([...got.keys()]).toEqual(['old']);
  });

  it('misses on a changed model id', async () => {
    const store = await engine.open();
    await store.vectors.putMany([{ hash: 'h', vector: Float32Array.of(1, 0) }], 'model-a', 2);
    expect((await store.vectors.getMany(['h'], 'model-b', 2)).size).toBe(0);
    expect((await store.vectors.getMany(['h'], 'model-b', 3)).size).toBe(0); // another id may have another size
  });

  it('refuses a stored dimension that differs for the same model id, with the fix in the message', async () => {
    const store = await engine.open();
    await store.vectors.putMany([{ hash: 'h', vector: new Float32Array(512) }], "it's-x", 512);
    const message = dimensionMessage(engine, store, "it's-x");
    await expect(store.vectors.getMany(['other'], "it's-x", 384)).rejects.toThrow(message);
    await expect(
      store.vectors.putMany([{ hash: 'h2', vector: new Float32Array(384) }], "it's-x", 384),
    ).rejects.toThrow(message);
    expect(await store.vectors.count("it's-x")).toBe(1);

    // The fix the message names works.
    expect(await store.vectors.clearModel("it's-x")).toBe(1);
    await store.vectors.putMany([{ hash: 'h2', vector: new Float32Array(384) }], "it's-x", 384);
    expect((await store.vectors.getMany(['h2'], "it's-x", 384)).size).toBe(1);
  });

  it('rejects a vector whose length differs from the dimension, writing none of the batch', async () => {
    const store = await engine.open();
    const rows = [
      { hash: 'good', vector: new Float32Array(4) },
      { hash: 'bad', vector: new Float32Array(3) },
    ];
    await expect(store.vectors.putMany(rows, MODEL, 4)).rejects.toThrow(
      `the embedder for model "${MODEL}" gave a 3-value vector for content hash "bad" but declares dimension 4; set the embedder's dimension to what its model returns`,
    );
    expect(await store.vectors.count(MODEL)).toBe(0);
  });

  it('prunes vectors of hashes no longer in the catalog, for one model only', async () => {
    const store = await engine.open();
    const rows = ['a', 'b', 'c'].map((hash) => ({ hash, vector: Float32Array.of(1) }));
    await store.vectors.putMany(rows, 'm1', 1);
    await store.vectors.putMany(rows, 'm2', 1);
    expect(await store.vectors.prune(new Set(['a', 'c', 'not-cached']), 'm1')).toBe(1);
    expect([...(await store.vectors.getMany(['a', 'b', 'c'], 'm1', 1)).keys()].sort()).toEqual(['a', 'c']);
    expect(await store.vectors.count('m2')).toBe(3);
    expect(await store.vectors.prune([], 'm2')).toBe(3);
    expect(await store.vectors.models()).toEqual([{ modelId: 'm1', dimension: 1, count: 2 }]);
  });

  it('overwrites a vector put again and reads back across many lookup chunks', async () => {
    const store = await engine.open();
    const rows = Array.from({ length: 1000 }, (_, i) => ({ hash: `h${i}`, vector: Float32Array.of(i, -i) }));
    await store.vectors.putMany(rows, MODEL, 2);
    await store.vectors.putMany([{ hash: 'h7', vector: Float32Array.of(70, 70) }], MODEL, 2);
    const asked = [...rows.map((r) => r.hash), 'missing', 'h7'];
    const got = await store.vectors.getMany(asked, MODEL, 2);
    expect(got.size).toBe(1000);
    expect([...got.get('h999')!]).toEqual([999, -999]);
    expect([...got.get('h7')!]).toEqual([70, 70]);
    expect((await store.vectors.getMany([], MODEL, 2)).size).toBe(0);
    expect(await store.vectors.models()).toEqual([{ modelId: MODEL, dimension: 2, count: 1000 }]);
  });

  it('getMany returns exactly what putMany stored (property)', async () => {
    const store = await engine.open();
    let run = 0;
    const batch = fc.integer({ min: 1, max: 16 }).chain((dimension) =>
      fc.record({
        dimension: fc.constant(dimension),
        rows: fc.uniqueArray(
          fc.record({
            hash: fc.string({ maxLength: 40 }),
            vector: fc.float32Array({ minLength: dimension, maxLength: dimension }),
          }),
          { selector: (r) => r.hash, maxLength: 40 },
        ),
        others: fc.array(fc.string({ maxLength: 40 }), { maxLength: 10 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(batch, async ({ dimension, rows, others }) => {
        const model = `model-${run++}`;
        await store.vectors.putMany(rows, model, dimension);
        const put = new Map(rows.map((r) => [r.hash, r.vector]));
        const got = await store.vectors.getMany([...others, ...put.keys()], model, dimension);
        expect([...got.keys()].sort()).toEqual([...put.keys()].sort());
        for (const [hash, v] of got) expect(bytes(v)).toEqual(bytes(put.get(hash)!));
        expect(await store.vectors.count(model)).toBe(rows.length);
      }),
    );
  });
});

describe('vectors migrations on SQLite', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('migrates a store made at schema version 2 and keeps its data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-vectors-'));
    dirs.push(dir);
    const path = join(dir, 'carte.db');
    const old = new Database(path);
    MIGRATIONS.slice(0, 2).forEach((sql) => old.exec(sql));
    old.pragma('user_version = 2');
    old.prepare("INSERT INTO servers (id, config_hash, discover_result) VALUES ('s', 'h', '{}')").run();
    old
      .prepare(
        `INSERT INTO tools (key, server_id, name, content_hash, first_seen_at, last_seen_at)
         VALUES ('s/t', 's', 't', 'c1', 'then', 'then')`,
      )
      .run();
    old.close();

    const store = await openStore(path);
    expect((await store.servers.get('s'))?.discoverResult).toEqual({});
    expect((await store.tools.get('s/t'))?.contentHash).toBe('c1');
    await store.vectors.putMany([{ hash: 'c1', vector: Float32Array.of(0.5) }], MODEL, 1);
    expect((await store.vectors.getMany(['c1'], MODEL, 1)).get('c1')).toEqual(Float32Array.of(0.5));
    expect(await store.checkIntegrity()).toBe('ok');
    await store.close();

    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });
});
