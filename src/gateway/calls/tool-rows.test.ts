import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store, type ToolRow } from '../../store/index.js';
import { ToolRows, TOOL_ROWS_MAX } from './tool-rows.js';

let dir = '';
let store: Store | undefined;
afterEach(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const tool = (key: string, properties: Record<string, unknown> = {}): ToolRow => {
  const [serverId, name] = key.split('/') as [string, string];
  return {
    ...{ key, serverId, name, title: null, description: `does ${name}` },
    inputSchema: { type: 'object', properties },
    ...{ outputSchema: undefined, annotations: undefined, meta: undefined, execution: undefined },
    ...{ icons: undefined, schemaTruncatedFrom: null, contentHash: `h-${JSON.stringify(properties)}` },
    ...{ firstSeenAt: 'then', lastSeenAt: 'then' },
  };
};

function seeded(keys: string[]): Store {
  dir = mkdtempSync(join(tmpdir(), 'carte-rows-'));
  store = openStore(join(dir, 'carte.db'));
  store.servers.reconcileConfig('a', 'h');
  store.tools.applyChanges(
    { added: keys.map((k) => tool(k)), changed: [], removed: [], unchanged: [] },
    'then',
  );
  return store;
}

describe('ToolRows', () => {
  it('answers as the store did when the row was first read, frozen, until invalidated', () => {
    const s = seeded(['a/x']);
    const rows = new ToolRows(s);
    const first = rows.get('a/x')!;
    expect(first).toEqual(s.tools.get('a/x'));
    expect(Object.isFrozen(first.inputSchema)).toBe(true);
    expect(() => ((first.inputSchema as { type: string }).type = 'array')).toThrow(TypeError);
    const changed = tool('a/x', { n: { type: 'number' } });
    s.tools.applyChanges({ added: [], changed: [changed], removed: [], unchanged: [] }, 'now');
    expect(rows.get('a/x')).toBe(first); // the catalog did not tell it yet
    rows.invalidate();
    expect(rows.get('a/x')!.inputSchema).toEqual(changed.inputSchema);
    expect(rows.get('a/nope')).toBeUndefined();
  });

  it(`starts over past ${TOOL_ROWS_MAX} rows and still answers every key`, () => {
    const keys = Array.from({ length: TOOL_ROWS_MAX + 5 }, (_, i) => `a/t${i}`);
    const rows = new ToolRows(seeded(keys));
    for (const k of keys) expect(rows.get(k)?.key).toBe(k);
    expect(rows.get(keys[0]!)?.key).toBe(keys[0]);
  });
});
