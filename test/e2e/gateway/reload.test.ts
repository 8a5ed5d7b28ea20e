import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { FIXTURES, fixture, harness, stdioServer, tempDir } from '../helpers.js';
import { fixtureEntry, serveOverStdio } from '../face-clients.js';

// Slow: fixture servers behind a gateway, and a real `carte serve` whose config file changes.
describe('config hot reload', () => {
  it('restarts only changed servers and keeps in-flight calls of the others', async () => {
    const a = fixture('a', 'paginated.mjs');
    const b = fixture('b', 'faults.mjs');
    const c = fixture('c', 'list-changed.mjs');
    const h = await harness([a, b, c]);
    try {
      await h.gateway.sync(ME);
      const inFlight = h.gateway.callTool(ME, 'b/slow', { ms: 1200, steps: 4 });
      await new Promise((r) => setTimeout(r, 200));
      const a2 = stdioServer('a', [join(FIXTURES, 'paginated.mjs'), '--changed']);
      const b2 = { ...b, timeoutMs: 30_000 };
      const d = fixture('d', 'duplicate-names.mjs');
      const report = await h.gateway.reload(ME, [a2, b2, d]);
      expect(report).toMatchObject({ added: ['d'], removed: ['c'], changed: ['a'], updated: ['b'] });
      expect(report.syncs.map((s) => [s.server, s.status])).toEqual([
        ['d', 'success'],
        ['a', 'success'],
      ]);
      expect(JSON.stringify((await inFlight).content)).toContain('4 steps done');
      expect(await h.store.tools.listByServer('c')).toEqual([]);
      expect(h.gateway.listServers(ME).map((s) => s.id)).toEqual(['a', 'b', 'd']);
      expect(h.gateway.searchTools(ME, 'unique')[0]?.key).toBe('d/unique');
    } finally {
      await h.close();
    }
  });

  it('carte serve follows its config file and refuses a broken one', async () => {
    const tmp = tempDir();
    const config = join(tmp.dir, 'carte.yaml');
    const line = (id: string, file: string) => `${fixtureEntry({ id, file })}\n`;
    writeFileSync(config, `servers:\n${line('paged', 'paginated.mjs')}`);
    const client = new Client({ name: 'reload', version: '0' });
    await client.connect(serveOverStdio(config, join(tmp.dir, 'data')));
    const keys = async (q: string) => {
      const r = await client.callTool({ name: 'search_tools', arguments: { query: q, limit: 3 } });
      return (r.structuredContent as { results: Array<{ key: string }> }).results.map((x) => x.key);
    };
    const waitFor = async (q: string, key: string) => {
      const end = Date.now() + 20_000;
      while (!(await keys(q)).includes(key)) {
        if (Date.now() > end) throw new Error(`${key} never appeared`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    try {
      expect(await keys('page_tool_2')).toContain('paged/page_tool_2');
      writeFileSync(
        config,
        `servers:\n${line('paged', 'paginated.mjs')}${line('dupes', 'duplicate-names.mjs')}`,
      );
      await waitFor('unique', 'dupes/unique');
      writeFileSync(config, 'servers: [this is not a server map\n');
      await new Promise((r) => setTimeout(r, 600));
      expect(await keys('unique')).toContain('dupes/unique');
    } finally {
      await client.close();
      tmp.cleanup();
    }
  });
});
