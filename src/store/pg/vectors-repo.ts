import { CarteError } from '../../errors.js';
import type { VectorsContract } from './contracts.js';
import type { VectorModel, VectorRow } from '../sqlite/vectors-repo.js';
import { atomically, changes, rawRows, row, rows, type Queryable } from './db.js';

/** Little-endian float32 bytes, as the SQLite blob holds them. */
function encode(v: Float32Array): Buffer {
  const out = Buffer.alloc(v.byteLength);
  v.forEach((x, i) => out.writeFloatLE(x, i * 4));
  return out;
}

/**
 * A vector of its own: pg parses each bytea into a Buffer that may sit in Node's shared pool at
 * any offset, so a view over it could be unaligned; a copy costs little next to the round trip.
 */
function decode(bytes: Buffer): Float32Array {
  const out = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** The tool_vectors table on PostgreSQL: the contract of ../vectors-repo.ts. */
export class PgVectorsRepo implements VectorsContract {
  /** `printable`: the store's URL without its password, for the fix in an error message. */
  constructor(
    private readonly q: Queryable,
    private readonly printable: string,
  ) {}

  /** The cached vectors among `hashes` for this model; hashes without one are absent. */
  async getMany(
    hashes: readonly string[],
    modelId: string,
    dimension: number,
  ): Promise<Map<string, Float32Array>> {
    checkDimension(dimension, modelId);
    const out = new Map<string, Float32Array>();
    if (hashes.length === 0) return out;
    await this.refuseOtherDimension(this.q, modelId, dimension);
    const sql =
      'SELECT content_hash, vector FROM tool_vectors WHERE model_id = $1 AND content_hash = ANY($2::text[])';
    for (const [hash, bytes] of (await rawRows(this.q, sql, [modelId, [...new Set(hashes)]])) as [
      string,
      Buffer,
    ][]) {
      out.set(hash, decode(bytes));
    }
    return out;
  }

  /** Caches vectors in one transaction; a vector of the wrong length rejects the whole batch. */
  async putMany(list: readonly VectorRow[], modelId: string, dimension: number): Promise<void> {
    checkDimension(dimension, modelId);
    for (const { hash, vector } of list) {
      if (vector.length !== dimension) {
        throw new CarteError(
          'store',
          `the embedder for model "${modelId}" gave a ${vector.length}-value vector for content hash "${hash}" but declares dimension ${dimension}; set the embedder's dimension to what its model returns`,
          { details: { modelId, hash, length: vector.length, dimension } },
        );
      }
    }
    if (list.length === 0) return;
    const last = [...new Map(list.map((r) => [r.hash, r.vector])).entries()]; // a later put wins, as in SQLite
    await atomically(this.q, async (c) => {
      await this.refuseOtherDimension(c, modelId, dimension);
      await c.query(
        `INSERT INTO tool_vectors (content_hash, model_id, dimension, vector, created_at)
         SELECT h, $1, $2, v, $3 FROM unnest($4::text[], $5::bytea[]) AS u(h, v)
         ON CONFLICT (content_hash, model_id) DO UPDATE SET
           dimension = excluded.dimension, vector = excluded.vector, created_at = excluded.created_at`,
        [modelId, dimension, new Date().toISOString(), last.map(([h]) => h), last.map(([, v]) => encode(v))],
      );
    });
  }

  /** Deletes this model's vectors whose hash is not in `keepHashes`. */
  async prune(keepHashes: Iterable<string>, modelId: string): Promise<number> {
    const sql = 'DELETE FROM tool_vectors WHERE model_id = $1 AND content_hash <> ALL($2::text[])';
    return changes(this.q, sql, [modelId, [...keepHashes]]);
  }

  /** Deletes every vector of one model. */
  async clearModel(modelId: string): Promise<number> {
    return changes(this.q, 'DELETE FROM tool_vectors WHERE model_id = $1', [modelId]);
  }

  async count(modelId: string): Promise<number> {
    const r = await row<{ n: number }>(this.q, 'SELECT count(*) AS n FROM tool_vectors WHERE model_id = $1', [
      modelId,
    ]);
    return r!.n;
  }

  /** Every (model, dimension) the cache holds, with its vector count. */
  async models(): Promise<VectorModel[]> {
    const sql = `SELECT model_id AS "modelId", dimension, count(*) AS count FROM tool_vectors
                 GROUP BY model_id, dimension ORDER BY model_id, dimension`;
    return rows<VectorModel>(this.q, sql);
  }

  /** A model id names one dimension: refuse vectors of another size under it (see VectorsRepo). */
  private async refuseOtherDimension(q: Queryable, modelId: string, dimension: number): Promise<void> {
    const sql = `SELECT min(dimension) AS lo, max(dimension) AS hi FROM tool_vectors WHERE model_id = $1`;
    const { lo, hi } = (await row<{ lo: number | null; hi: number | null }>(q, sql, [modelId]))!;
    const stored = lo !== null && lo !== dimension ? lo : hi !== null && hi !== dimension ? hi : undefined;
    if (stored === undefined) return;
    const where = this.printable;
    const sqlId = modelId.replaceAll("'", "''");
    throw new CarteError(
      'store',
      `the vector cache in "${where}" holds ${stored}-dimension vectors for model "${modelId}" but the embedder gives ${dimension}; delete them with store.vectors.clearModel("${modelId}") or \`psql "${where}" -c "DELETE FROM tool_vectors WHERE model_id = '${sqlId}'"\`, then embed again`,
      { details: { modelId, storedDimension: stored, dimension, path: where } },
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
