import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigSchema, parseConfigText, SERVER_ID_PATTERN, type LoadResult } from '../../src/config/index.js';
import { ROOT } from '../e2e/helpers.js';
import {
  anyConfigValue,
  applyEdits,
  applyTextEdits,
  dataEdit,
  ENV,
  SECRET,
  SEEDS,
  serialize,
  textEdit,
} from './config-mutations.js';

// Mutation fuzzing of config loading: valid documents in each format, edited at random (data
// first, then text), must load into a config the schema accepts or into errors that say what is
// wrong, and never throw. src/config/load/load.property.test.ts covers generated values; this goes
// from real-looking files outward.
const PATHS = [
  '/cfg/carte.yaml',
  '/cfg/carte.yml',
  '/cfg/carte.json',
  '/cfg/mcp.json',
  '/cfg/claude_desktop_config.json',
];
const load = (text: string, path: string): LoadResult =>
  parseConfigText(text, { path, env: ENV, dataDir: '/data' });

/** The contract of parseConfigText for any text. */
function checkResult(r: LoadResult, label: string): void {
  for (const p of [...r.errors, ...r.warnings]) {
    expect(typeof p.path, label).toBe('string');
    expect(typeof p.message === 'string' && p.message.trim().length > 0, `${label}: empty message`).toBe(
      true,
    );
  }
  expect(JSON.stringify([r.errors, r.warnings]), `${label}: a message leaks the secret`).not.toContain(
    SECRET,
  );
  expect(['carte', 'claude', 'vscode']).toContain(r.format);
  if (!r.ok) {
    expect(r.config, label).toBeUndefined();
    expect(r.errors.length, `${label}: not ok, but no errors`).toBeGreaterThan(0);
    return;
  }
  expect(r.errors, label).toEqual([]);
  const config = r.config!;
  for (const id of Object.keys(config.servers)) expect(id, label).toMatch(SERVER_ID_PATTERN);
  // The loaded config is what the schema describes (minus the `kind` tag Carte adds).
  const written = Object.fromEntries(
    Object.entries(config.servers).map(([id, { kind: _k, ...s }]) => [id, s]),
  );
  const again = ConfigSchema.safeParse({ ...config, servers: written });
  expect(again.success, `${label}: ${JSON.stringify(again.error?.issues)}`).toBe(true);
}

describe('the seed configs', () => {
  it.each(SEEDS)('$name loads as it is, in its own syntax and as YAML and JSONC', ({ value, path }) => {
    for (const text of [serialize(value, path, 'plain'), serialize(value, path, 'jsonc')]) {
      const r = load(text, path);
      expect(r.errors).toEqual([]);
      expect(r.ok).toBe(true);
    }
  });
});

describe('mutated configs', () => {
  const seed = fc.constantFrom(...SEEDS);

  it('edited data: always a valid config or errors with messages, never a throw', () => {
    const edits = fc.array(dataEdit, { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        seed,
        edits,
        fc.constantFrom(...PATHS),
        fc.constantFrom('plain' as const, 'jsonc' as const),
        (s, e, path, style) => {
          const text = serialize(applyEdits(s.value, e), path, style);
          const r = load(text, path);
          checkResult(r, `${s.name} ${path}`);
          expect(load(text, path), 'the same text loads the same way twice').toEqual(r);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('damaged text: truncated, spliced, stray bytes and YAML oddities', () => {
    const edits = fc.array(textEdit, { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(
        seed,
        fc.array(dataEdit, { maxLength: 2 }),
        edits,
        fc.constantFrom(...PATHS),
        (s, d, t, path) => {
          const text = applyTextEdits(serialize(applyEdits(s.value, d), path, 'plain'), t);
          checkResult(load(text, path), `${s.name} ${path}`);
        },
      ),
      { numRuns: 600 },
    );
  });

  // Was a bug (zod records assign `result[key] = value`, so "__proto__" set the prototype and the
  // entry vanished); parse-text.ts now refuses the key anywhere in a config.
  it('an env entry named "__proto__" is kept or reported, not silently dropped', () => {
    const r = load('{"servers": {"a": {"command": "node", "env": {"__proto__": "x"}}}}', '/cfg/carte.json');
    const env = (r.config?.servers.a as { env?: Record<string, string> } | undefined)?.env ?? {};
    expect(Object.hasOwn(env, '__proto__') || r.errors.some((e) => e.message.includes('__proto__'))).toBe(
      true,
    );
  });

  it('any JSON value, in any format', () => {
    fc.assert(
      fc.property(anyConfigValue, fc.constantFrom(...PATHS), (v, path) => {
        checkResult(load(serialize(v, path, 'plain'), path), path);
      }),
      { numRuns: 300 },
    );
  });
});

describe('big and deep files', () => {
  const many = (n: number) => ({
    servers: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`s${i}`, { command: 'node', args: [`${i}.js`, '${env:TOKEN}'] }]),
    ),
  });

  it.each(['/cfg/carte.yaml', '/cfg/carte.json'])('5,000 servers in %s load', (path) => {
    const r = load(serialize(many(5_000), path, 'plain'), path);
    checkResult(r, path);
    expect(Object.keys(r.config?.servers ?? {})).toHaveLength(5_000);
  });

  it('a 5 MB string value and 100,000 comment lines load', () => {
    const big = stringify({ servers: { a: { command: 'node', args: ['x'.repeat(5 * 1024 * 1024)] } } });
    checkResult(load(big, '/cfg/carte.yaml'), 'big value');
    const comments = `${'# a comment line\n'.repeat(100_000)}servers: {}\n`;
    checkResult(load(comments, '/cfg/carte.yaml'), 'comments');
  });

  it('5,000 errors at once are all reported', () => {
    const bad = {
      servers: Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`S${i}`, { command: 1 }])),
    };
    const r = load(JSON.stringify(bad), '/cfg/carte.json');
    checkResult(r, 'many errors');
    expect(r.errors.length).toBeGreaterThanOrEqual(5_000);
  });

  it('JSON nested 100,000 deep is a syntax error, not a stack overflow', () => {
    const r = load(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, '/cfg/carte.json');
    checkResult(r, 'deep json');
    expect(r.errors[0]?.message).toContain('nesting is deeper than');
  });

  it('an alias bomb is refused', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const r = load(`${lines.join('\n')}\nservers: {}\n`, '/cfg/carte.yaml');
    checkResult(r, 'alias bomb');
    expect(r.ok).toBe(false);
  });

  // Was a bug: YAML went to the `yaml` package with no nesting limit, and after a 1,000-deep
  // document a 10,000-deep one aborted the process (out of memory in the RegExp compiler).
  // parse-text.ts now refuses bracket nesting past 64 levels before parsing.
  it('YAML nested 10,000 deep after a 1,000-deep one is an error, not a process abort', () => {
    const script = `
      const { parseConfigText } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src', 'config', 'index.ts')).href)});
      const deep = (n) => 'servers: ' + '['.repeat(n) + ']'.repeat(n) + '\\n';
      const opts = { path: '/cfg/carte.yaml', env: {} };
      parseConfigText(deep(1000), opts);
      const r = parseConfigText(deep(10000), opts);
      process.stdout.write(JSON.stringify({ ok: r.ok, errors: r.errors.length }));
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.status, child.stderr.slice(0, 300)).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ ok: false, errors: 1 });
  }, 40_000);
});
