// Mutation-based generators of config text: start from valid documents in each format Carte
// reads, apply a few random edits to the data (wrong types, unknown keys, bad ids, `${...}` edge
// cases), serialize it, then maybe damage the text itself (truncation, stray bytes, YAML oddities).
import fc from 'fast-check';
import { stringify } from 'yaml';

/** The environment the configs expand against; TOKEN must never appear in any message. */
export const SECRET = 'tok-SECRET-4f9a';
export const ENV = { TOKEN: SECRET, ROOT: '/srv/carte', EMPTY: '' };

export interface Seed {
  name: string;
  path: string;
  value: unknown;
}

/** Valid documents in each format (each must load: the test checks that first). */
export const SEEDS: Seed[] = [
  {
    name: 'carte',
    path: '/cfg/carte.yaml',
    value: {
      $schema: 'https://example.com/carte.schema.json',
      servers: {
        files: {
          command: 'node',
          args: ['server.js', '--root', '${dataDir}/files', '--token', '${env:TOKEN}'],
          env: { API_TOKEN: '${env:TOKEN}', PLAIN: 'x' },
          cwd: 'sub/dir',
          timeoutMs: 5000,
          description: 'Local files',
        },
        remote: {
          url: 'https://mcp.example.com/${env:TOKEN}/mcp',
          headers: { Authorization: 'Bearer ${env:TOKEN}' },
          transport: 'sse',
          enabled: false,
          discoveryTimeoutMs: 1000,
        },
        literal: { command: 'echo', args: ['$${env:NOT_EXPANDED}', '${env:EMPTY}'] },
      },
      search: { strategy: 'lexical' },
      limits: { maxSchemaBytes: 65536 },
    },
  },
  {
    name: 'claude',
    path: '/cfg/claude_desktop_config.json',
    value: {
      mcpServers: {
        'My Files': { command: 'npx', args: ['-y', 'pkg'], env: { KEY: '${env:TOKEN}' } },
        web: { url: 'https://x.example/mcp', disabled: true },
      },
      globalShortcut: 'Ctrl+Space',
    },
  },
  {
    name: 'vscode',
    path: '/cfg/.vscode/mcp.json',
    value: {
      inputs: [{ type: 'promptString', id: 'key', description: 'API key', password: true }],
      servers: {
        github: { type: 'http', url: 'https://api.example/mcp', headers: { Authorization: '${env:TOKEN}' } },
        local: { type: 'stdio', command: 'node', args: ['a.js'], env: { A: '${env:ROOT}' } },
      },
    },
  },
];

/** `${...}` templates and near-templates, the interpolation's edge cases. */
const TEMPLATES = [
  '${env:TOKEN}',
  '${env:UNSET}',
  '${env:}',
  '${env:1BAD}',
  '${env:A-B}',
  '${env:TOKEN',
  '${env:__proto__}',
  '${env:constructor}',
  '${env:hasOwnProperty}',
  '${env:${env:TOKEN}}',
  '$${env:TOKEN}',
  '$$${env:TOKEN}',
  '$$',
  '${dataDir}',
  '${dataDir',
  '${DATADIR}',
  '${input:key}',
  '${}',
  '${',
  '$',
  '}',
  '${env:TOKEN}${env:TOKEN}',
  'pre-${env:EMPTY}-post',
  '\u0000${env:TOKEN}',
];

/** Keys Carte or a neighbouring format knows, misspelt, or hostile to plain objects. */
const KEYS = [
  'comand',
  'arg',
  'enviroment',
  'timeout',
  'Servers',
  'mcpServers',
  'servers',
  'inputs',
  'type',
  'disabled',
  'enabled',
  'transport',
  'url',
  'command',
  'search',
  'limits',
  '__proto__',
  'constructor',
  'toString',
  '',
  ' ',
  '$schema',
];

const BAD_IDS = [
  '',
  'UPPER',
  'with space',
  '-lead',
  '_lead',
  'a.b',
  'ü',
  'x'.repeat(300),
  '__proto__',
  '../x',
  '\u0000',
  'ok-id',
];

export const anyConfigValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...TEMPLATES),
  fc.constantFrom<unknown>(
    0,
    -1,
    1.5,
    2 ** 31,
    1e308,
    86_400_001,
    1023,
    16 * 1024 * 1024 + 1,
    true,
    null,
    [],
    {},
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

/** One edit to the data, by index into the document's paths (so it shrinks and replays). */
export type DataEdit =
  | { op: 'set'; at: number; value: unknown }
  | { op: 'delete'; at: number }
  | { op: 'addKey'; at: number; key: string; value: unknown }
  | { op: 'renameKey'; at: number; key: string }
  | { op: 'template'; at: number; template: string }
  | { op: 'duplicate'; at: number; key: string };

export const dataEdit: fc.Arbitrary<DataEdit> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: anyConfigValue }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('addKey' as const),
    at: fc.nat(),
    key: fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })),
    value: anyConfigValue,
  }),
  fc.record({
    op: fc.constant('renameKey' as const),
    at: fc.nat(),
    key: fc.constantFrom(...KEYS, ...BAD_IDS),
  }),
  fc.record({ op: fc.constant('template' as const), at: fc.nat(), template: fc.constantFrom(...TEMPLATES) }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), key: fc.constantFrom(...BAD_IDS) }),
);

type Container = Record<string, unknown> | unknown[];
type Slot = { parent: Container; key: string | number };

/** Every slot (container and key) in a document, depth first. */
function slots(doc: unknown): Slot[] {
  const out: Slot[] = [];
  const walk = (v: unknown) => {
    if (typeof v !== 'object' || v === null) return;
    for (const key of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      out.push({ parent: v as Container, key });
      walk((v as Record<string | number, unknown>)[key]);
    }
  };
  walk(doc);
  return out;
}

/** Sets an own property, even `__proto__`. */
function define(o: Container, key: string | number, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies the edits to a copy of `doc`. */
export function applyEdits(doc: unknown, edits: readonly DataEdit[]): unknown {
  const root = { doc: structuredClone(doc) };
  for (const e of edits) {
    const all = slots(root);
    const slot = all[e.at % all.length]!;
    const { parent, key } = slot;
    const current = (parent as Record<string | number, unknown>)[key];
    switch (e.op) {
      case 'set':
        define(parent, key, structuredClone(e.value));
        break;
      case 'delete':
        if (parent === root) break;
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key as string];
        break;
      case 'addKey':
        if (typeof current === 'object' && current !== null && !Array.isArray(current))
          define(current as Container, e.key, structuredClone(e.value));
        break;
      case 'renameKey':
        if (parent !== root && !Array.isArray(parent) && !Object.hasOwn(parent, e.key)) {
          define(parent, e.key, current);
          delete parent[key as string];
        }
        break;
      case 'template':
        define(parent, key, typeof current === 'string' ? `${current}${e.template}` : e.template);
        break;
      case 'duplicate':
        if (parent !== root && !Array.isArray(parent)) define(parent, e.key, structuredClone(current));
        break;
    }
  }
  return root.doc;
}

/** Text damage: positions are fractions of the text's length. */
export type TextEdit =
  | { op: 'truncate'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'cut'; at: number; length: number }
  | { op: 'repeatLine'; at: number };

const SNIPPETS = [
  '\t',
  '\u0000',
  '\uFEFF',
  '\r\n',
  '\n---\n',
  '\n...\n',
  ' #',
  '//',
  '/*',
  '*/',
  ',',
  ',}',
  '"',
  "'",
  '&a ',
  '*a',
  '<<: *a\n',
  '!!binary ',
  '!!js/function ',
  '!custom ',
  '? ',
  '{',
  '[',
  '\\u12',
  '%YAML 1.1\n',
  '0x1F',
  '.inf',
  '~',
  '2001-12-14t21:59:43.10-05:00',
];

export const textEdit: fc.Arbitrary<TextEdit> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    text: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ unit: 'binary', maxLength: 6 })),
  }),
  fc.record({
    op: fc.constant('cut' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    length: fc.nat(20),
  }),
  fc.record({ op: fc.constant('repeatLine' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
);

export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  let t = text;
  for (const e of edits) {
    const i = Math.floor(e.at * t.length);
    if (e.op === 'truncate') t = t.slice(0, i);
    else if (e.op === 'insert') t = t.slice(0, i) + e.text + t.slice(i);
    else if (e.op === 'cut') t = t.slice(0, i) + t.slice(i + e.length);
    else {
      const lines = t.split('\n');
      const n = Math.floor(e.at * lines.length);
      lines.splice(n, 0, lines[n] ?? '');
      t = lines.join('\n');
    }
  }
  return t;
}

/** Writes a document the way people do: YAML, JSON, or JSONC with comments and trailing commas. */
export function serialize(value: unknown, path: string, style: 'plain' | 'jsonc'): string {
  if (path.endsWith('.yaml') || path.endsWith('.yml')) return stringify(value);
  const json = JSON.stringify(value, null, 2) ?? 'null';
  return style === 'jsonc' ? `// written by hand\n${json.replace(/\n(\s*)([}\]])/g, ',\n$1$2')}\n` : json;
}
