import { describe, expect, it } from 'vitest';
import { countTokens } from '../gateway/index.js';
import { META_TOOLS, metaTools } from './index.js';
import { withRunCode } from './meta-tools.js';

// The whole point of the meta-tools is a small menu: their `tools/list` answer, as the face sends
// it (`{tools: [...]}` as JSON), must stay under 500 tokens in the o200k_base encoding, with the
// longest catalog digest the gateway can write (six 24-character server ids, or six categories).
const LIMIT = 500;
// (six-figure counts throughout; category ids that tokenise worst; server ids that are 20 random letters)
const SHORT = '1,234,567 tools, 12,345 servers, 10 categories.';
const LONGEST_DIGEST = {
  long: 'Holds 1,234,567 tools from 12,345 servers; most in communication 123,456, documents 123,456, utilities 123,456, security 123,456, ....',
  short: SHORT,
};
const LONGEST_SERVERS = {
  long: `Holds 1,234,567 tools: ${['qzxjvkwpyf', 'bnmgthrlsd', 'wqpzkxvjcy', 'lfgrtnbmhd']
    .map((id, i) => `${id}${id.split('').reverse().join('').slice(0, 9)}… (${123_456 + i})`)
    .join(', ')}.`,
  short: SHORT,
};

describe('the meta-tools listing', () => {
  it.each([
    ['without a digest', JSON.stringify({ tools: META_TOOLS })],
    ['with the longest category digest', JSON.stringify({ tools: metaTools(LONGEST_DIGEST) })],
    ['with the longest server digest', JSON.stringify({ tools: metaTools(LONGEST_SERVERS) })],
  ])(`stays under ${LIMIT} tokens %s`, async (_, listing) => {
    const tokens = await countTokens(listing);
    process.stderr.write(`meta-tools listing: ${tokens} tokens (o200k_base), ${listing.length} characters\n`);
    expect(tokens).toBeLessThan(LIMIT);
  });

  // With run_code listed (exposure.code.enabled, issue 43), and `format` on the tools that give
  // its signatures, the listing may grow to 550 tokens.
  it.each([
    ['with the longest category digest', LONGEST_DIGEST],
    ['with the longest server digest', LONGEST_SERVERS],
  ])('stays under 550 tokens with run_code, %s', async (_, digest) => {
    const listing = JSON.stringify({ tools: withRunCode(metaTools(digest)) });
    const tokens = await countTokens(listing);
    process.stderr.write(`meta-tools listing with run_code: ${tokens} tokens (o200k_base)\n`);
    expect(tokens).toBeLessThan(550);
  });
});
