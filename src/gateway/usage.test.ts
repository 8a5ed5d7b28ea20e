import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CarteError } from '../errors.js';
import { openStore, type Store } from '../store/index.js';
import type { Logger } from '../upstream/index.js';
import { estimateJsonBytes, recordCall, usageRecorder } from './usage.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup(): { store: Store; warnings: string[]; logger: Logger } {
  const dir = mkdtempSync(join(tmpdir(), 'carte-usage-'));
  dirs.push(dir);
  const warnings: string[] = [];
  const logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (m: string) => warnings.push(m) };
  return { store: openStore(join(dir, 'carte.db')), warnings, logger };
}

const rows = (store: Store) => store.activity.usageByTool().map((u) => [u.key, u.calls, u.errors]);
const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const target = { key: 'everything/echo', server: 'everything' };

describe('recordCall', () => {
  it('passes results and errors through untouched and records each outcome', async () => {
    const { store, logger } = setup();
    const rec = usageRecorder(store, logger);
    const ok = { content: [{ type: 'text', text: 'Echo: hi' }] };
    await expect(recordCall(rec, target, () => Promise.resolve(ok))).resolves.toBe(ok);
    const toolError = { content: [], isError: true };
    await expect(recordCall(rec, target, () => Promise.resolve(toolError))).resolves.toBe(toolError);
    const timeout = new CarteError('timeout', 'too slow');
    await expect(recordCall(rec, target, () => Promise.reject(timeout))).rejects.toBe(timeout);
    const bug = new TypeError('x is undefined');
    await expect(recordCall(rec, target, () => Promise.reject(bug))).rejects.toBe(bug);
    expect(rows(store)).toEqual([['everything/echo', 4, 3]]);
    // The outcomes as written (the usage query sums them; the hot list reads only ok and tool_error).
    expect(store.activity.hotScores({ now: Date.now() + 1, halfLifeDays: 1e9 })[0]?.score).toBeCloseTo(2);
    store.close();
  });

  it('records the result size and a duration that covers the call', async () => {
    const { store, logger } = setup();
    const result = { content: [{ type: 'text', text: 'naïve ✓' }], structuredContent: { n: 1.5, ok: true } };
    const started = performance.now();
    await recordCall(usageRecorder(store, logger), target, async () => {
      await new Promise((r) => setTimeout(r, 20));
      return result;
    });
    const elapsed = performance.now() - started;
    const [usage] = store.activity.usageByTool();
    expect(usage?.p50Ms).toBeGreaterThanOrEqual(15);
    expect(usage?.p50Ms).toBeLessThanOrEqual(elapsed);
    expect(estimateJsonBytes(result)).toBe(jsonBytes(result));
    store.close();
  });

  it('a failed write keeps the call and logs one warning a minute', async () => {
    const { store, warnings, logger } = setup();
    const rec = usageRecorder(store, logger);
    store.close(); // every write now fails
    const ok = { content: [] };
    await expect(recordCall(rec, target, () => Promise.resolve(ok))).resolves.toBe(ok);
    const down = new CarteError('upstream_unavailable', 'gone');
    await expect(recordCall(rec, target, () => Promise.reject(down))).rejects.toBe(down);
    expect(warnings).toEqual([
      'cannot record tool calls in the activity table: The database connection is not open',
    ]);
  });
});

describe('estimateJsonBytes', () => {
  it.each([
    ['an echo result', { content: [{ type: 'text', text: 'Echo: m12345' }] }],
    ['scalars', [0, -1.25, 1e21, true, false, null, '']],
    ['empty containers', { a: [], b: {}, c: [[]] }],
    ['non-ASCII text', { text: '日本語のテキスト'.repeat(200), emoji: '👍🏽' }],
    ['a long ASCII string', { data: 'QUJD'.repeat(100_000) }],
    ['a long non-ASCII string', { text: 'ü'.repeat(5000) }],
    ['64 entries (not sampled)', Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, i]))],
  ])('is exact for %s', (_name, value) => {
    expect(estimateJsonBytes(value)).toBe(jsonBytes(value));
  });

  it('is exact for any JSON without escaped characters and small containers', () => {
    const plain = fc.string({ unit: fc.constantFrom('a', 'Z', '1', ' ', 'é', '中', '😀') });
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        plain,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 8 }),
        fc.dictionary(plain, tie('value'), { maxKeys: 8 }),
      ),
    })).value;
    fc.assert(fc.property(json, (v) => estimateJsonBytes(v) === jsonBytes(v)));
  });

  it('sizes long arrays of similar rows within a few percent', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'] }));
    const value = { content: [{ type: 'text', text: 'ok' }], structuredContent: { rows } };
    const ratio = estimateJsonBytes(value) / jsonBytes(value);
    expect(ratio).toBeGreaterThan(0.97);
    expect(ratio).toBeLessThan(1.03);
  });

  it('stays bounded on a deep grid (samples one entry per list past its visit budget)', () => {
    const grid = Array.from({ length: 70 }, () =>
      Array.from({ length: 70 }, () => Array.from({ length: 70 }, (_, i) => i)),
    );
    const ratio = estimateJsonBytes(grid) / jsonBytes(grid);
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(1.1);
  });
});
