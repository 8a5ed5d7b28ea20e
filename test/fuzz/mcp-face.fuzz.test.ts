import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { LOCAL_CALLER as ME } from '../../src/gateway/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { fixture, harness, tempDir, type Harness } from '../e2e/helpers.js';
import {
  anyValue,
  expectMeta,
  expectToolCall,
  META_NAMES,
  metaArguments,
  SAFE_KEYS,
  toolArguments,
  type Catalog,
  type Expected,
  type FlatSchema,
} from './meta-arbitraries.js';
import { preview, RawSession, type Answer } from './raw-session.js';

// Property tests of the MCP face against malformed input, in process: a raw JSON-RPC client on
// the SDK's in-memory transport, a gateway over a real SQLite file, real fixture upstreams.
// The same face over a real `carte serve` process is in mcp-face-stdio.fuzz.test.ts.
const tmp = tempDir('carte-fuzz-mcp-');
let h: Harness;
let session: RawSession;
let catalog: Catalog;
const tokensSent = new Set<unknown>();

beforeAll(async () => {
  h = await harness([fixture('faults', 'faults.mjs'), fixture('paged', 'paginated.mjs')], tmp.dir);
  const reports = await h.gateway.sync(ME);
  expect(reports.map((r) => r.status)).toEqual(['success', 'success']);
  session = await RawSession.open(createMcpServer(h.gateway));
  const schemas = new Map<string, FlatSchema>();
  for (const key of SAFE_KEYS) {
    const answer = await callMeta('describe_tool', { key });
    schemas.set(
      key,
      flatSchema(key, (resultOf(answer).structuredContent as { inputSchema: unknown }).inputSchema),
    );
  }
  catalog = { servers: ['faults', 'paged'], keys: await h.store.tools.listKeys(), schemas };
}, 60_000);

afterAll(async () => {
  await session?.close();
  await h?.close();
  tmp.cleanup();
});

const callMeta = (name: string, args: unknown, meta?: Record<string, unknown>): Promise<Answer> =>
  session.request('tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) });

describe('meta-tool calls with wrong names, types and values', () => {
  it('always answer with a tool result that names the problem, never a bug or a hang', async () => {
    const call = fc.oneof(
      ...META_NAMES.map((name) => fc.tuple(fc.constant<string>(name), metaArguments[name])),
      fc.tuple(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 20 }),
          fc.constantFrom('', 'Search_Tools', 'call_tool '),
        ),
        metaArguments.call_tool,
      ),
    );
    await fc.assert(
      fc.asyncProperty(call, async ([name, args]) => {
        checkAnswer(await callMeta(name, args), expectMeta(name, args, catalog));
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('answer a non-object `arguments` with a JSON-RPC invalid-params error', async () => {
    const notObject = anyValue.filter((v) => v !== null && (typeof v !== 'object' || Array.isArray(v)));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...META_NAMES), notObject, async (name, args) => {
        const answer = await callMeta(name, args);
        expect(answer.kind).toBe('error');
        if (answer.kind === 'error') checkProtocolError(answer, -32602);
      }),
      { numRuns: 50 },
    );
  }, 30_000);
});

describe('call_tool with arguments built from the fixtures’ real schemas', () => {
  it('refuses schema violations naming each field, and passes valid calls to the upstream', async () => {
    const withToken = fc.option(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { nil: undefined });
    const call = fc
      .constantFrom(...SAFE_KEYS)
      .chain((key) => fc.tuple(fc.constant(key), toolArguments(catalog.schemas.get(key)!), withToken));
    await fc.assert(
      fc.asyncProperty(call, async ([key, args, token]) => {
        if (token !== undefined) tokensSent.add(token);
        const meta = token === undefined ? undefined : { progressToken: token };
        const answer = await callMeta('call_tool', { key, arguments: args }, meta);
        checkAnswer(answer, expectToolCall(catalog.schemas.get(key), args));
      }),
      { numRuns: 150 },
    );
    // Progress goes back only with a token the client sent (the upstream got its own).
    const progress = session.unsolicited.filter((m) => m.method === 'notifications/progress');
    for (const p of progress)
      expect(tokensSent).toContain((p.params as { progressToken: unknown }).progressToken);
  }, 60_000);
});

describe('any method with any params', () => {
  it('gets a result or a JSON-RPC error with an integer code and a message', async () => {
    const method = fc.oneof(
      fc.constantFrom(
        'tools/list',
        'tools/call',
        'resources/list',
        'resources/templates/list',
        'resources/read',
        'prompts/list',
        'prompts/get',
        'ping',
        'completion/complete',
        'logging/setLevel',
        'server/discover',
        'subscriptions/listen',
        'tasks/get',
      ),
      fc.string({ unit: 'binary', maxLength: 30 }),
    );
    // `_meta` is left out: the SDK drops a request whose envelope is malformed (see below).
    const params = fc.option(
      fc.dictionary(
        fc.string({ maxLength: 10 }).filter((k) => k !== '_meta'),
        anyValue,
        { maxKeys: 4 },
      ),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(method, params, async (m, p) => {
        const answer = await session.request(m, p);
        if (answer.kind === 'error') checkProtocolError(answer);
        else expect(answer.result).toBeTypeOf('object');
      }),
      { numRuns: 150 },
    );
    expect((await session.request('tools/list')).kind).toBe('result');
  }, 60_000);

  // SDK, not src/: the SDK's Protocol drops a request whose params fail its envelope schema
  // (`_meta.progressToken` not a string or integer) with only an onerror callback, so the
  // client waits forever. JSON-RPC 2.0 asks for an Invalid Request (-32600) error instead.
  // Carte's stdio face guards against it (src/mcp/guard-transport.ts, tested over a real
  // `carte serve` in mcp-face-stdio.fuzz.test.ts); this pins the SDK's own behaviour.
  it.fails(
    'answers a request whose _meta.progressToken is an object (dropped today: no answer at all)',
    async () => {
      const answer = await session.request(
        'tools/call',
        { name: 'search_tools', arguments: { query: 'echo' }, _meta: { progressToken: { a: 1 } } },
        3_000,
      );
      expect(answer.kind).toBe('error');
    },
  );
});

describe('bugs the fuzzer found, now fixed', () => {
  const deepArrays = (depth: number): unknown => {
    let v: unknown = [];
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  };

  // src/mcp/args.ts formatted the bad value with an unguarded JSON.stringify, which throws
  // RangeError past about 5,000 levels (an `internal` error); it now uses errors.preview().
  it('search_tools with a 10,000-deep `query` is bad_input naming "query"', async () => {
    const answer = await callMeta('search_tools', { query: deepArrays(10_000) });
    checkAnswer(answer, { kind: 'error', code: 'bad_input', mentions: ['"query"'] });
  });

  it('describe_tool with a 10,000-deep `key` is bad_input naming "key"', async () => {
    const answer = await callMeta('describe_tool', { key: deepArrays(10_000) });
    checkAnswer(answer, { kind: 'error', code: 'bad_input', mentions: ['"key"'] });
  });

  // Schema-valid arguments with a 10,000-deep extra property used to reach the SDK, whose
  // JSON.stringify threw while sending (reported as upstream_unavailable); the gateway now
  // refuses arguments nested deeper than 100 levels as bad_input.
  it('call_tool with a 10,000-deep extra argument is bad_input, not upstream_unavailable', async () => {
    const answer = await callMeta('call_tool', {
      key: 'faults/echo',
      arguments: { text: 'x', extra: deepArrays(10_000) },
    });
    checkAnswer(answer, { kind: 'error', code: 'bad_input', mentions: ['arguments'] });
  });
});

/** A meta-tool answer: a tool result, erroring exactly as the oracle says, never `internal`. */
function checkAnswer(answer: Answer, expected: Expected): void {
  const r = resultOf(answer);
  expect(Array.isArray(r.content), preview(r)).toBe(true);
  // An upstream's own success may be empty (echo ""); anything else must have words in it.
  if (expected.kind === 'upstream' && r.isError !== true) return;
  const text = firstText(r);
  const carte = (r._meta as Record<string, { code?: string; jsonrpc?: number }> | undefined)?.['carte/error'];
  expect(carte?.code, `internal error: ${text.slice(0, 300)}`).not.toBe('internal');
  if (expected.kind === 'error') {
    expect(r.isError, preview(r)).toBe(true);
    expect(carte?.code, text.slice(0, 300)).toBe(expected.code);
    expect(carte?.jsonrpc).toBe(ERROR_CODES[expected.code as keyof typeof ERROR_CODES].jsonrpc);
    for (const m of expected.mentions)
      expect(text.includes(m), `${preview(text)} should mention ${preview(m)}`).toBe(true);
  } else if (expected.kind === 'ok') {
    expect(r.isError, text.slice(0, 300)).toBeUndefined();
    expect(JSON.parse(text)).toEqual(r.structuredContent);
  } else {
    // Reached the upstream: its own isError passes through; its JSON-RPC error is upstream_error.
    expect(carte === undefined || carte.code === 'upstream_error', text.slice(0, 300)).toBe(true);
  }
}

function checkProtocolError(answer: Extract<Answer, { kind: 'error' }>, code?: number): void {
  const { error } = answer;
  expect(Number.isInteger(error.code), preview(error)).toBe(true);
  expect(typeof error.message === 'string' && error.message.length > 0, preview(error)).toBe(true);
  if (code !== undefined) expect(error.code).toBe(code);
}

function resultOf(answer: Answer): Record<string, unknown> {
  if (answer.kind !== 'result')
    throw new Error(`expected a tool result, got a JSON-RPC error: ${preview(answer.error)}`);
  return answer.result;
}

function firstText(r: Record<string, unknown>): string {
  const first = (r.content as Array<{ type?: string; text?: unknown }> | undefined)?.[0];
  if (first?.type !== 'text' || typeof first.text !== 'string' || first.text === '') {
    throw new Error(`expected a non-empty text content, got ${preview(r)}`);
  }
  return first.text;
}

/** The schema as stored, checked to be of the flat shape the oracle understands. */
function flatSchema(key: string, schema: unknown): FlatSchema {
  const s = schema as FlatSchema;
  const flat =
    s.type === 'object' &&
    Object.values(s.properties ?? {}).every((p) => p.type === 'string' || p.type === 'number') &&
    Object.keys(s).every((k) => ['type', 'properties', 'required'].includes(k));
  if (!flat) throw new Error(`${key}: the oracle does not understand ${preview(schema)}`);
  return { type: 'object', properties: s.properties ?? {}, ...(s.required ? { required: s.required } : {}) };
}
