import { CarteError } from '../../errors.js';
import { prepared, type Db } from './sqlite.js';

/** One vector to cache: the tool's content hash and its embedding. */
export interface VectorRow {
  hash: string;
  vector: Float32Array;
}

/** What the cache holds for one model. */
export interface VectorModel {
  modelId: string;
  dimension: number;
  count: number;
}

/**
 * Most hashes bound in one lookup. SQLite allows 32,766 variables; a list of a few hundred keeps
 * statements small. Shorter chunks are padded to a power of two, so at most 9 statements are cached.
 */
const CHUNK = 256;

/**
 * From this many hashes on, one scan of the model's rows beats chunked lookups (a catalog's
 * start-up read, not a few changed tools): 28 statements of 256 hashes vs one (docs/search-providers.md).
 */
const SCAN_FROM = 1024;

/** Vectors are stored little-endian; on such hosts (all Node targets in practice) bytes copy as is. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function encode(v: Float32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  const out = Buffer.alloc(v.byteLength);
  v.forEach((x, i) => out.writeFloatLE(x, i * 4));
  return out;
}

/**
 * A vector over the blob's own bytes: the driver gives each blob a fresh buffer, so a view costs
 * no copy (7k vectors: 9 ms as views, 19..61 ms as copies; docs/search-providers.md, "Cold start").
 */
function decode(bytes: Buffer): Float32Array {
  const n = bytes.byteLength / 4;
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, n);
  const out = new Float32Array(n);
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes);
  else for (let i = 0; i < n; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** The smallest power of two >= n (n <= CHUNK). */
const bucket = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));

/** The tool_vectors table: embeddings cached by (content hash, model id), so unchanged tools skip the model. */
export class VectorsRepo {
  // One snapshot for the dimension check and every chunk; puts take the write lock up front.
  private readonly readTx;
  private readonly writeTx;

  constructor(private readonly db: Db) {
    this.readTx = db.transaction(this.read.bind(this));
    this.writeTx = db.transaction(this.write.bind(this));
  }

  /** The cached vectors among `hashes` for this model; hashes without one are absent from the map. */
  getMany(hashes: readonly string[], modelId: string, dimension: number): Map<string, Float32Array> {
    checkDimension(dimension, modelId);
    if (hashes.length === 0) return new Map<string, Float32Array>();
    return this.readTx.deferred(hashes, modelId, dimension);
  }

  /** Caches vectors in one transaction; a vector of the wrong length rejects the whole batch. */
  putMany(rows: readonly VectorRow[], modelId: string, dimension: number): void {
    checkDimension(dimension, modelId);
    for (const { hash, vector } of rows) {
      if (vector.length !== dimension) {
        throw new CarteError(
          'store',
          `the embedder for model "${modelId}" gave a ${vector.length}-value vector for content hash "${hash}" but declares dimension ${dimension}; set the embedder's dimension to what its model returns`,
          { details: { modelId, hash, length: vector.length, dimension } },
        );
      }
    }
    if (rows.length > 0) this.writeTx.immediate(rows, modelId, dimension);
  }

  /** Deletes this model's vectors whose hash is not in `keepHashes` (tools gone from the catalog). */
  prune(keepHashes: Iterable<string>, modelId: string): number {
    const sql = `DELETE FROM tool_vectors WHERE model_id = @modelId
                 AND content_hash NOT IN (SELECT value FROM json_each(@keep))`;
    return prepared(this.db, sql).run({ modelId, keep: JSON.stringify([...keepHashes]) }).changes;
  }

  /** Deletes every vector of one model: the way to re-embed, or to drop a model no longer used. */
  clearModel(modelId: string): number {
    return prepared(this.db, 'DELETE FROM tool_vectors WHERE model_id = ?').run(modelId).changes;
  }

  count(modelId: string): number {
    return prepared(this.db, 'SELECT count(*) FROM tool_vectors WHERE model_id = ?')
      .pluck()
      .get(modelId) as number;
  }

  /** Every (model, dimension) the cache holds, with its vector count. */
  models(): VectorModel[] {
    const sql = `SELECT model_id AS modelId, dimension, count(*) AS count FROM tool_vectors
                 GROUP BY model_id, dimension ORDER BY model_id, dimension`;
    return prepared(this.db, sql).all() as VectorModel[];
  }

  private read(hashes: readonly string[], modelId: string, dimension: number): Map<string, Float32Array> {
    this.refuseOtherDimension(modelId, dimension);
    if (hashes.length >= SCAN_FROM) return this.scan(new Set(hashes), modelId);
    const out = new Map<string, Float32Array>();
    for (let i = 0; i < hashes.length; i += CHUNK) {
      const chunk = hashes.slice(i, i + CHUNK);
      const size = bucket(chunk.length);
      while (chunk.length < size) chunk.push(chunk[0]!); // padding repeats a hash: IN ignores it
      const sql = `SELECT content_hash, vector FROM tool_vectors
                   WHERE model_id = ? AND content_hash IN (${'?, '.repeat(size - 1)}?)`;
      const rows = prepared(this.db, sql)
        .raw()
        .all(modelId, ...chunk) as [string, Buffer][];
      for (const [hash, bytes] of rows) out.set(hash, decode(bytes));
    }
    return out;
  }

  /** Every vector of the model whose hash is wanted, in one statement. */
  private scan(wanted: ReadonlySet<string>, modelId: string): Map<string, Float32Array> {
    const sql = 'SELECT content_hash, vector FROM tool_vectors WHERE model_id = ?';
    const out = new Map<string, Float32Array>();
    const rows = prepared(this.db, sql).raw().all(modelId) as [string, Buffer][];
    for (const [hash, bytes] of rows) {
      if (wanted.has(hash)) out.set(hash, decode(bytes));
    }
    return out;
  }

  private write(rows: readonly VectorRow[], modelId: string, dimension: number): void {
    this.refuseOtherDimension(modelId, dimension);
    const upsert = prepared(
      this.db,
      `INSERT INTO tool_vectors (content_hash, model_id, dimension, vector, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(content_hash, model_id) DO UPDATE SET
         dimension = excluded.dimension, vector = excluded.vector, created_at = excluded.created_at`,
    );
    const now = new Date().toISOString();
    for (const { hash, vector } of rows) upsert.run(hash, modelId, dimension, encode(vector), now);
  }

  /**
   * A model id names one dimension; vectors of another size under the same id would compare as
   * garbage, so refuse them before reading or writing any. Two index seeks (min and max).
   */
  private refuseOtherDimension(modelId: string, dimension: number): void {
    const sql = `SELECT (SELECT min(dimension) FROM tool_vectors WHERE model_id = @modelId),
                        (SELECT max(dimension) FROM tool_vectors WHERE model_id = @modelId)`;
    const [lo, hi] = prepared(this.db, sql).raw().get({ modelId }) as [number | null, number | null];
    const stored = lo !== null && lo !== dimension ? lo : hi !== null && hi !== dimension ? hi : undefined;
    if (stored === undefined) return;
    const path = this.db.name;
    const sqlId = modelId.replaceAll("'", "''");
    throw new CarteError(
      'store',
      `the vector cache in "${path}" holds ${stored}-dimension vectors for model "${modelId}" but the embedder gives ${dimension}; delete them with store.vectors.clearModel("${modelId}") or \`sqlite3 "${path}" "DELETE FROM tool_vectors WHERE model_id = '${sqlId}'"\`, then embed again`,
      { details: { modelId, storedDimension: stored, dimension, path } },
    );
  }
}

function checkDimension(dimension: number, modelId: string): void {
  if (!Number.isInteger(dimension) || dimension <= 0) {
    throw new CarteError(
      'internal',
      `internal error (a bug): model "${modelId}" declares dimension ${dimension}, not a positive integer`,
    );
  }
}
