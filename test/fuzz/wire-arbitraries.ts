// Generators of raw stdin bytes for a stdio MCP server: every line is wrong in some way a real
// client, proxy or terminal could make it wrong. Each chunk ends with a newline, so the request
// written after it starts on a line of its own.
import fc from 'fast-check';

const MB = 1 << 20;

/** Request ids JSON-RPC allows and ones it does not. */
const oddId = fc.oneof(
  fc.constantFrom<unknown>({}, [], null, true, 1.5, -0, 1e300, '', -1, 2 ** 53 + 2, '\u0000', '\ud800'),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.integer(),
);

/** Methods the server knows, and ones it cannot know. */
const method = fc.oneof(
  fc.constantFrom(
    'tools/list',
    'tools/call',
    'ping',
    'initialize',
    'resources/list',
    'prompts/list',
    'notifications/initialized',
    'notifications/cancelled',
    'server/discover',
    'logging/setLevel',
    'TOOLS/LIST',
    '',
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const version = fc.constantFrom<unknown>('2.0', '1.0', '2', 2, 2.0, null, '', ' 2.0', '2.0\u0000');

/** A JSON-RPC-looking object: any subset of the fields, each possibly of the wrong type. */
const rpcish = fc.record(
  {
    jsonrpc: version,
    id: oddId,
    method,
    params: fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constant({ name: 'search_tools', arguments: { query: 'x' } }),
    ),
    result: fc.jsonValue({ maxDepth: 2 }),
    error: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);

/** A valid request envelope (answered) with an unknown method. */
const unknownMethod = fc
  .tuple(fc.integer({ min: 1_000_000 }), fc.stringMatching(/^[a-z]{1,8}\/[a-z]{1,8}$/))
  .map(([id, m]) => JSON.stringify({ jsonrpc: '2.0', id, method: `x-${m}` }));

const nested = (depth: number, open: string, inner: string, close: string) =>
  open.repeat(depth) + inner + close.repeat(depth);

/** One line of garbage (without its newline). */
const line: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  rpcish.map((m) => JSON.stringify(m)),
  rpcish.chain((m) => {
    const text = JSON.stringify(m);
    return fc.nat(Math.max(0, text.length - 1)).map((cut) => text.slice(0, cut)); // truncated JSON
  }),
  unknownMethod,
  fc.uint8Array({ maxLength: 200 }).map((bytes) => bytes.map((b) => (b === 10 ? 32 : b))), // not UTF-8
  fc.integer({ min: 1_000, max: 200_000 }).map((d) => nested(d, '[', '', ']')),
  fc.integer({ min: 1_000, max: 100_000 }).map((d) => nested(d, '{"a":', '1', '}')),
  fc
    .integer({ min: 1_000, max: 20_000 })
    .map(
      (d) =>
        `{"jsonrpc":"2.0","id":"deep-${d}","method":"tools/call","params":{"name":"describe_tool","arguments":{"key":${nested(d, '[', '', ']')}}}}`,
    ),
  fc.constantFrom(
    'x'.repeat(MB),
    JSON.stringify({
      jsonrpc: '2.0',
      id: 'huge-query',
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { query: 'q '.repeat(MB / 2) } },
    }),
    JSON.stringify({ jsonrpc: '2.0', id: 'huge-method', method: 'm'.repeat(MB) }),
    '',
    '\r',
    '\uFEFF{"jsonrpc":"2.0","id":"bom","method":"ping"}',
  ),
);

/** A chunk of 1-4 garbage lines, LF or CRLF terminated. */
export const garbage: fc.Arbitrary<Buffer> = fc
  .array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 4 })
  .map((lines) => Buffer.concat(lines.flatMap(([l, end]) => [Buffer.from(l), Buffer.from(end)])));
