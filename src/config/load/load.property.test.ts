import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigSchema, parseConfigText, type LoadResult } from '../index.js';

const env = { A: 'a', TOKEN: 'tok' };

/** Values that look a bit like configs, so the deep paths get exercised too. */
const serverish = fc.record(
  {
    command: fc.oneof(fc.string(), fc.constant('${env:A}'), fc.jsonValue()),
    url: fc.oneof(fc.constant('https://x/${env:TOKEN}'), fc.webUrl(), fc.jsonValue()),
    args: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
    env: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.jsonValue()),
    headers: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.constant('${input:x}'))),
    type: fc.constantFrom('stdio', 'http', 'sse', 'ws'),
    transport: fc.constantFrom('sse', 'streamable-http', 'x'),
    timeoutMs: fc.oneof(fc.integer(), fc.double()),
    disabled: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
/** Mostly valid configs, so the success branch is exercised as much as the error one. */
const strings = fc.dictionary(fc.string(), fc.string());
const wellFormed = fc.record({
  servers: fc.dictionary(
    fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,8}$/),
    fc.oneof(
      fc.record({ command: fc.string(), args: fc.array(fc.string()), env: strings, timeoutMs: fc.nat() }),
      fc.record({ url: fc.webUrl(), headers: strings, transport: fc.constantFrom('sse', 'streamable-http') }),
    ),
  ),
});
const configish = fc.oneof(
  fc.jsonValue(),
  wellFormed,
  fc.record({ servers: fc.dictionary(fc.string(), serverish) }, { requiredKeys: [] }),
  fc.record({ mcpServers: fc.dictionary(fc.string(), serverish) }),
  fc.record({ servers: fc.dictionary(fc.string(), serverish), inputs: fc.constant([]) }),
);

function checkResult(r: LoadResult): void {
  if (r.ok) {
    expect(r.errors).toEqual([]);
    // The loaded config is what the schema describes (minus the kind tag Carte adds).
    const written = Object.fromEntries(
      Object.entries(r.config!.servers).map(([id, { kind: _k, ...s }]) => [id, s]),
    );
    expect(ConfigSchema.safeParse({ ...r.config, servers: written }).success).toBe(true);
  } else {
    expect(r.config).toBeUndefined();
    expect(r.errors.length).toBeGreaterThan(0);
    for (const e of r.errors) expect(typeof e.message).toBe('string');
  }
  expect(JSON.stringify(r.errors)).not.toContain('"tok"');
}

describe('any input', () => {
  it('as JSON never throws and gives a valid config or errors', () => {
    fc.assert(
      fc.property(configish, fc.constantFrom('/c/carte.json', '/c/mcp.json'), (value, path) => {
        checkResult(parseConfigText(JSON.stringify(value), { path, env, dataDir: '/d' }));
      }),
      { numRuns: 500 },
    );
  });

  it('as YAML never throws and gives a valid config or errors', () => {
    fc.assert(
      fc.property(configish, (value) => {
        checkResult(parseConfigText(stringify(value), { path: '/c/carte.yaml', env }));
      }),
      { numRuns: 500 },
    );
  });

  it('as arbitrary text never throws', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('/c/a.yaml', '/c/a.json'), (text, path) => {
        checkResult(parseConfigText(text, { path, env }));
      }),
      { numRuns: 500 },
    );
  });
});
