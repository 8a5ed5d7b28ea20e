// Generators of meta-tool calls (mostly wrong) and a naive oracle of what Carte must answer.
import fc from 'fast-check';

export const META_NAMES = ['search_tools', 'browse_tools', 'describe_tool', 'call_tool'] as const;

/** Fixture tools whose calls end quickly whatever the arguments (no hang, crash, long sleep). */
export const SAFE_KEYS = [
  'faults/echo',
  'faults/big_result',
  'faults/bad_output',
  'faults/slow',
  'faults/is_error',
  'faults/flood_list_changed',
  'faults/stats',
  'paged/page_tool_1',
  'paged/page_tool_7',
] as const;

/** The only schema shape the safe tools use (checked against describe_tool in beforeAll). */
export interface FlatSchema {
  type: 'object';
  properties: Record<string, { type: 'string' | 'number' }>;
  required?: string[];
}

/** Numbers a fixture turns into work (bytes, ms, count): only bounded or clearly bad values. */
const BOUNDED_NUMBERS: Record<string, fc.Arbitrary<number>> = {
  bytes: fc.oneof(fc.nat(4096), fc.constantFrom(-1, 1.5, 2 ** 40)),
  ms: fc.oneof(fc.nat(30), fc.constantFrom(-5, 0.25)),
  steps: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(-1, 2.5)),
  count: fc.oneof(fc.nat(5), fc.constantFrom(-1, 0.5)),
};

const HUGE = 'h'.repeat(1 << 20);

/** Nesting `depth` levels of arrays or objects: deep, but within what JSON.stringify handles. */
function nested(depth: number, kind: 'array' | 'object'): unknown {
  let v: unknown = kind === 'array' ? [] : {};
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { k: v };
  return v;
}

/** Any value a JSON client could send, leaning on the awkward ones. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      '',
      ' ',
      '\u0000',
      '\ud800',
      '\udfff x',
      '../../etc/passwd',
      'faults/',
      '/echo',
      '__proto__',
      'constructor',
      0,
      -0,
      -1,
      1.5,
      51,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      true,
      false,
      null,
      [],
      {},
      [[]],
    ),
  },
  { weight: 1, arbitrary: fc.constant(HUGE) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 10, max: 800 }), fc.constantFrom('array' as const, 'object' as const))
      .map(([d, k]) => nested(d, k)),
  },
);

const word = fc.stringMatching(/^[a-z]{1,10}$/);
const text = fc.oneof(
  fc.array(word, { maxLength: 6 }).map((w) => w.join(' ')),
  fc.string({ maxLength: 30 }),
);
const server = fc.constantFrom('faults', 'paged', '', 'fault', 'PAGED', 'nope');
const keyish = fc.oneof(
  fc.constantFrom(
    ...SAFE_KEYS,
    'faults/echoo',
    'faults/ech',
    'paged/page_tool_99',
    'echo',
    'faults//echo',
    'faults/ECHO',
  ),
  fc.tuple(server, fc.string({ maxLength: 12 })).map(([s, n]) => `${s}/${n}`),
);

/** Each field: absent, a plausible value, or anything at all. */
function field<T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: anyValue });
}

export const metaArguments = {
  search_tools: fc.record(
    {
      query: field(fc.oneof(text, fc.array(text, { maxLength: 4 }))),
      limit: field(fc.integer({ min: -2, max: 60 })),
      server: field(server),
    },
    { requiredKeys: [] },
  ),
  browse_tools: fc.record(
    { server: field(server), cursor: field(fc.oneof(fc.constant(''), fc.base64String({ maxLength: 40 }))) },
    { requiredKeys: [] },
  ),
  describe_tool: fc.record({ key: field(keyish) }, { requiredKeys: [] }),
  call_tool: fc.record(
    {
      key: field(keyish),
      arguments: field(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }))),
    },
    { requiredKeys: [] },
  ),
};

/** Arguments for one tool built from its real schema: right types, wrong types, missing, extra. */
export function toolArguments(schema: FlatSchema): fc.Arbitrary<Record<string, unknown>> {
  const anyButNumber = anyValue.filter((v) => typeof v !== 'number');
  const props = Object.fromEntries(
    Object.entries(schema.properties).map(([name, p]) => {
      const right = p.type === 'string' ? text : (BOUNDED_NUMBERS[name] ?? fc.integer({ min: -10, max: 10 }));
      // A wrong value for a number field must not be a number: a fixture would take it as work.
      const wrong = p.type === 'number' ? anyButNumber : anyValue;
      return [name, fc.oneof({ weight: 4, arbitrary: right }, { weight: 1, arbitrary: wrong })];
    }),
  );
  const extra = fc.dictionary(fc.stringMatching(/^x_[a-z]{1,6}$/), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 3,
  });
  return fc.tuple(fc.record(props, { requiredKeys: [] }), extra).map(([own, more]) => ({ ...more, ...own }));
}

/** What Carte must answer; `mentions` must all appear in the error text. */
export type Expected =
  { kind: 'ok' } | { kind: 'upstream' } | { kind: 'error'; code: string; mentions: string[] };

export interface Catalog {
  servers: readonly string[];
  keys: readonly string[];
  schemas: ReadonlyMap<string, FlatSchema>;
}

const ok: Expected = { kind: 'ok' };
const bad = (...mentions: string[]): Expected => ({ kind: 'error', code: 'bad_input', mentions });
const absent = (v: unknown) => v === undefined || v === null;
const isString = (v: unknown): v is string => typeof v === 'string';

/** The naive oracle: the first thing wrong, in the order the face reads the fields. */
export function expectMeta(name: string, a: Record<string, unknown>, cat: Catalog): Expected {
  const stringField = (f: string, required = false): Expected | undefined =>
    absent(a[f])
      ? required
        ? bad(`"${f}" is required`)
        : undefined
      : isString(a[f])
        ? undefined
        : bad(`"${f}"`);
  switch (name) {
    case 'search_tools': {
      const q = a.query;
      if (!(isString(q) || (Array.isArray(q) && q.length > 0 && q.every(isString)))) return bad('"query"');
      const l = a.limit;
      if (!absent(l) && !(typeof l === 'number' && Number.isInteger(l) && l >= 1 && l <= 50))
        return bad('"limit"');
      const s = stringField('server');
      if (s) return s;
      return isString(a.server) && !cat.servers.includes(a.server) ? unknownServer(a.server) : ok;
    }
    case 'browse_tools': {
      const s = stringField('server') ?? stringField('cursor');
      if (s) return s;
      // A cursor pages a category or a server: alone, it is refused.
      if (!isString(a.server) || a.server === '')
        return isString(a.cursor) && a.cursor !== '' ? bad('cursor') : ok;
      if (!cat.servers.includes(a.server)) return unknownServer(a.server);
      return isString(a.cursor) && a.cursor !== '' ? bad('cursor') : ok;
    }
    case 'describe_tool':
      return (
        stringField('key', true) ?? (cat.keys.includes(a.key as string) ? ok : unknownTool(a.key as string))
      );
    case 'call_tool': {
      const k = stringField('key', true);
      if (k) return k;
      const key = a.key as string;
      if (!cat.keys.includes(key)) return unknownTool(key);
      const args = a.arguments;
      if (!absent(args) && (typeof args !== 'object' || Array.isArray(args)))
        return bad('arguments', 'JSON object');
      return expectToolCall(cat.schemas.get(key), (args ?? {}) as Record<string, unknown>);
    }
    default:
      return bad(`unknown meta-tool "${name}"`);
  }
}

/** Schema-valid arguments reach the upstream; invalid ones are refused, naming each bad field. */
export function expectToolCall(schema: FlatSchema | undefined, args: Record<string, unknown>): Expected {
  if (!schema) throw new Error('the oracle only knows the schemas of SAFE_KEYS');
  // Arguments nested past 100 levels are refused before schema validation.
  if (depthOf(args) > 100) return bad('nest deeper than 100 levels');
  const wrong: string[] = [];
  for (const r of schema.required ?? []) if (!Object.hasOwn(args, r)) wrong.push(`'${r}'`);
  for (const [name, p] of Object.entries(schema.properties)) {
    if (!Object.hasOwn(args, name)) continue;
    const v = args[name];
    if (p.type === 'string' ? typeof v !== 'string' : typeof v !== 'number') wrong.push(`/${name}`);
  }
  return wrong.length ? bad('do not match its input schema', ...wrong) : { kind: 'upstream' };
}

/** How messages quote a value: as a JSON string, cut to 80 characters (errors.quote). */
const quoted = (value: string): string =>
  JSON.stringify(value.length > 80 ? `${value.slice(0, 79)}…` : value);

function unknownServer(id: string): Expected {
  return { kind: 'error', code: 'unknown_server', mentions: [`unknown server ${quoted(id)}`] };
}

function unknownTool(key: string): Expected {
  return { kind: 'error', code: 'unknown_tool', mentions: [`unknown tool ${quoted(key)}`] };
}

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  let max = 0;
  for (const v of Object.values(value)) max = Math.max(max, depthOf(v));
  return max + 1;
}
