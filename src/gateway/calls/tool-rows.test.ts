import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store, type ToolRow } from '../../store/index.js';
import { ToolRows, TOOL_ROWS_MAX } from './tool-rows.js';

let dir = '';
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
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

async function seeded(keys: string[]): Promise<Store> {
  dir = mkdtempSync(join(tmpdir(), 'carte-rows-'));
  const s = await openStore(join(dir, 'carte.db'));
  store = s;
  await s.servers.reconcileConfig('a', 'h');
  await s.tools.applyChanges(
    { added: keys.map((k) => tool(k)), changed: [], removed: [], unchanged: [] },
    'then',
  );
  return s;
}

describe('ToolRows', () => {
  it('answers as the store did when the row was first read, frozen, until invalidated', async () => {
    const s = await seeded(['a/x']);
    const rows = new ToolRows(s);
    const first = (await rows.get('a/x'))!;
    expect(first).toEqual(await s.tools.get('a/x'));
    expect(Object.isFrozen(first.inputSchema)).toBe(true);
    expect(() => ((first.inputSchema as { type: string }).type = 'array')).toThrow(TypeError);
    const changed = tool('a/x', { n: { type: 'number' } });
    await s.tools.applyChanges({ added: [], changed: [changed], removed: [], unchanged: [] }, 'now');
    expect(await rows.get('a/x')).toBe(first); // the catalog did not tell it yet
    rows.invalidate();
    expect((await rows.get('a/x'))!.inputSchema).toEqual(changed.inputSchema);
    expect(await rows.get('a/nope')).toBeUndefined();
  });

  it(`starts over past ${TOOL_ROWS_MAX} rows and still answers every key`, async () => {
    const keys = Array.from({ length: TOOL_ROWS_MAX + 5 }, (_, i) => `a/t${i}`);
    const rows = new ToolRows(await seeded(keys));
    for (const k of keys) expect((await rows.get(k))?.key).toBe(k);
    expect((await rows.get(keys[0]!))?.key).toBe(keys[0]);
  });
});
