import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildToolRecord, dedupeByKey, diffTools } from '../index.js';
import type { ToolRow } from '../../store/index.js';

const row = (name: string, description = 'd', at = 't0'): ToolRow => {
  const r = buildToolRecord('s', { name, description }, at);
  if (!r.ok) throw new Error(r.warning);
  return r.row;
};

describe('diffTools', () => {
  it('sorts listed tools into added, changed, removed and unchanged', () => {
    const stored = [row('a'), row('b'), row('c')];
    const listed = [row('a'), row('b', 'new text', 't1'), row('d', 'd', 't1')];
    const diff = diffTools(stored, listed);
    expect(diff.added.map((t) => t.name)).toEqual(['d']);
    expect(diff.changed.map((t) => [t.name, t.firstSeenAt])).toEqual([['b', 't0']]);
    expect(diff.removed).toEqual(['s/c']);
    expect(diff.unchanged).toEqual(['s/a']);
  });

  it('applying the diff to the stored set gives exactly the listed set (property)', () => {
    const names = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 });
    fc.assert(
      fc.property(names, names, fc.boolean(), (before, after, edit) => {
        const stored = before.map((n) => row(n));
        const listed = after.map((n) => row(n, edit ? 'edited' : 'd'));
        const diff = diffTools(stored, listed);
        const kept = new Map(stored.map((t) => [t.key, t]));
        diff.removed.forEach((k) => kept.delete(k));
        [...diff.added, ...diff.changed].forEach((t) => kept.set(t.key, t));
        expect([...kept.keys()].sort()).toEqual(listed.map((t) => t.key).sort());
        for (const t of listed) expect(kept.get(t.key)?.contentHash).toBe(t.contentHash);
      }),
    );
  });
});

describe('buildToolRecord', () => {
  it.each([
    [{ name: '' }, 'skipped a tool with an invalid name ""'],
    [{ name: 42 }, 'skipped a tool with an invalid name 42'],
    [{}, 'skipped a tool with an invalid name null'],
  ])('refuses %j', (tool, warning) => {
    expect(buildToolRecord('s', tool, 't')).toEqual({ ok: false, warning });
  });

  it('takes the title from annotations.title for older servers and keeps unknown _meta keys', () => {
    const r = buildToolRecord(
      's',
      { name: 'x', annotations: { title: 'Old Title' }, _meta: { 'vendor/x': 1 } },
      't',
    );
    expect(r.ok && r.row.title).toBe('Old Title');
    expect(r.ok && r.row.meta).toEqual({ 'vendor/x': 1 });
  });

  it('reduces a schema over the limit and says so', () => {
    const props = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(500) }]),
    );
    const r = buildToolRecord(
      's',
      { name: 'big', inputSchema: { type: 'object', properties: props, required: ['p1'] } },
      't',
      { maxSchemaBytes: 8192 },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.row.schemaTruncatedFrom).toBeGreaterThan(100_000);
    expect(r.row.inputSchema).toMatchObject({
      type: 'object',
      required: ['p1'],
      properties: { p0: { type: 'string' } },
    });
    expect(r.warning).toMatch(
      /^tool "big" has a \d+-byte schema, over the 8192-byte limit; a reduced schema is stored$/,
    );
  });
});

describe('dedupeByKey', () => {
  it('keeps the first of duplicate names', () => {
    const { rows, warnings } = dedupeByKey([row('a', 'first'), row('a', 'second')]);
    expect(rows.map((r) => r.description)).toEqual(['first']);
    expect(warnings).toEqual(['tool name "a" is listed more than once; the first is kept']);
  });
});
