import { describe, expect, it } from 'vitest';
import { countTokens } from '../gateway/index.js';
import { META_TOOLS } from './index.js';

// The whole point of the meta-tools is a small menu: their `tools/list` answer, as the face sends
// it (`{tools: META_TOOLS}` as JSON), must stay under 500 tokens in the o200k_base encoding.
const LIMIT = 500;

describe('the meta-tools listing', () => {
  it(`stays under ${LIMIT} tokens`, async () => {
    const listing = JSON.stringify({ tools: META_TOOLS });
    const tokens = await countTokens(listing);
    process.stderr.write(`meta-tools listing: ${tokens} tokens (o200k_base), ${listing.length} characters\n`);
    expect(tokens).toBeLessThan(LIMIT);
  });
});
