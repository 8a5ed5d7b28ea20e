// A deterministic embedder without a model: analysed words hashed into a small vector.
import { normalize, type Embedder } from './embedder.js';
import { analyze } from '../text/analyze.js';
import { porterStemmer } from '../text/stem.js';

/**
 * Feature hashing of the text's analysed words (stemmed, stop words dropped), unit length.
 * Texts that share words are close; nothing else is understood. It loads nothing and gives the
 * same vector for the same text on every host: for tests, and a floor to compare models with.
 */
export function createHashingEmbedder(dimension = 64): Embedder {
  return {
    id: `hashing-${dimension}`,
    dimension,
    embed(texts) {
      return Promise.resolve(texts.map((t) => hashWords(t, dimension)));
    },
  };
}

function hashWords(text: string, dimension: number): Float32Array {
  const v = new Float32Array(dimension);
  for (const word of analyze(text, porterStemmer)) {
    let h = 2166136261; // FNV-1a
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    v[(h >>> 0) % dimension]! += 1;
  }
  return normalize(v);
}
