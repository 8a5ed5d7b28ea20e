import { describe, expect, it } from 'vitest';
import { createDictionaryTranslator, createHashingEmbedder } from '../../search/index.js';
import {
  CATEGORY_EXEMPLARS,
  CATEGORY_IDS,
  categorizeServer,
  embedCategoryExemplars,
  FALLBACK_CATEGORY,
  semanticScores,
  type CategorizeTool,
  type SemanticEvidence,
} from '../index.js';

const N = CATEGORY_IDS.length;

/** Unit vector along axis `i` of a 2N-dimension space (the second half belongs to no category). */
function axis(i: number): Float32Array {
  const v = new Float32Array(2 * N);
  v[i] = 1;
  return v;
}

/** Category c's single exemplar lies on axis c. */
const CATEGORIES = CATEGORY_IDS.map((_, c) => [axis(c)]);

const tool = (name: string, description: string, paramNames: string[] = []): CategorizeTool => ({
  key: `s/${name}`,
  name,
  description,
  paramNames,
});

describe('semanticScores', () => {
  it('is the best exemplar cosine less the mean over categories, clipped at 0, best = 1', () => {
    const v = new Float32Array(2 * N);
    v[3] = 0.8; // documents
    v[4] = 0.6; // data
    const scores = [...semanticScores(v, CATEGORIES)];
    // Cosines 0.8 and 0.6, mean 0.14: (0.8 - 0.14) / 0.66 = 1, (0.6 - 0.14) / 0.66, the rest 0.
    expect(scores[3]).toBeCloseTo(1);
    expect(scores[4]).toBeCloseTo(0.46 / 0.66);
    expect(scores.filter((s) => s === 0)).toHaveLength(N - 2);
  });

  it('gives all zeros to a vector like no exemplar', () => {
    expect([...semanticScores(axis(N + 1), CATEGORIES)]).toEqual(new Array(N).fill(0));
  });
});

describe('categorizeServer with semantic evidence', () => {
  const silent = tool('frobnicate', 'Frobnicates the widget.');
  const clear = tool('send_email', 'Send an email message to a recipient via gmail', ['to', 'subject']);
  const vectors = new Map([
    [silent.key, axis(CATEGORY_IDS.indexOf('documents'))],
    [clear.key, axis(CATEGORY_IDS.indexOf('documents'))],
  ]);
  const semantic = (weight: number): SemanticEvidence => ({ vectors, categories: CATEGORIES, weight });

  it('decides a tool whose words say nothing, and leaves clear words alone at a small weight', () => {
    const got = categorizeServer({ id: 's' }, [silent, clear], { semantic: semantic(1), serverWeight: 0 });
    expect(got.get(silent.key)?.category).toBe('documents');
    expect(got.get(clear.key)?.category).toBe('communication');
  });

  it('changes nothing at weight 0 or for a tool without a vector', () => {
    const plain = categorizeServer({ id: 's' }, [silent, clear], { serverWeight: 0 });
    expect(plain.get(silent.key)?.category).toBe(FALLBACK_CATEGORY);
    const zero = categorizeServer({ id: 's' }, [silent, clear], { semantic: semantic(0), serverWeight: 0 });
    expect(zero).toEqual(plain);
    const none = { vectors: new Map(), categories: CATEGORIES, weight: 1 };
    expect(categorizeServer({ id: 's' }, [silent, clear], { semantic: none, serverWeight: 0 })).toEqual(
      plain,
    );
  });

  it('embeds every category’s exemplar phrases, in CATEGORY_IDS order', async () => {
    const embedder = createHashingEmbedder();
    const got = await embedCategoryExemplars(embedder);
    expect(got.map((list) => list.length)).toEqual(CATEGORY_IDS.map((id) => CATEGORY_EXEMPLARS[id].length));
    const [first] = await embedder.embed([CATEGORY_EXEMPLARS.infra[0]!]);
    expect(got[CATEGORY_IDS.indexOf('infra')]![0]).toEqual(first);
  });
});

describe('categorizeServer with a translator', () => {
  // 资料库 ("database") is in no category description; its gloss is.
  const translator = createDictionaryTranslator('test', {
    maxLength: 3,
    get: (w) => (w === '资料库' ? 'database' : undefined),
    variant: () => undefined,
  });
  const t = tool('chaxun', '查询资料库');

  it('scores the English gloss of a Chinese description', () => {
    expect(categorizeServer({ id: 's' }, [t]).get(t.key)?.category).toBe(FALLBACK_CATEGORY);
    expect(categorizeServer({ id: 's' }, [t], { translator }).get(t.key)?.category).toBe('data');
  });
});
