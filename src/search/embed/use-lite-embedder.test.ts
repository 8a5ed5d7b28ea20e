import { describe, expect, it } from 'vitest';
import { createUseLiteEmbedder, USE_LITE } from '../index.js';
import { dot } from './embedder.js';

// Loads the real 28 MB model from its npm package (no network): slow-ish, about a second.
describe('createUseLiteEmbedder (slow)', () => {
  it('embeds texts as unit vectors where related texts are closer', async () => {
    const embedder = await createUseLiteEmbedder();
    expect(embedder.id).toBe(USE_LITE.id);
    const [weather, forecast, file, empty] = await embedder.embed([
      'get the weather forecast for a city',
      'what will the weather be tomorrow in Paris',
      'write bytes to a file on disk',
      '',
    ]);
    for (const v of [weather!, forecast!, file!, empty!]) {
      expect(v).toHaveLength(USE_LITE.dimension);
      expect(dot(v, v)).toBeCloseTo(1, 4);
    }
    expect(dot(weather!, forecast!)).toBeGreaterThan(dot(weather!, file!));
  });
});
