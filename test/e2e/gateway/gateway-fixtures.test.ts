import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { fixture, harness, stdioServer, tempDir, type Harness } from '../helpers.js';

// Slow: each test spawns fixture servers of our own (test/fixtures).
let open: Harness[] = [];
const make = async (...args: Parameters<typeof harness>) => {
  const h = await harness(...args);
  open.push(h);
  return h;
};
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
});

const names = async (h: Harness, server: string) =>
  (await h.store.tools.listByServer(server)).map((t) => t.name);

describe('catalog sync against fixture upstreams', () => {
  it('follows tools/list pagination over three pages', async () => {
    const h = await make([fixture('paged', 'paginated.mjs')]);
    const [report] = await h.gateway.sync(ME);
    expect(report).toMatchObject({ status: 'success', toolCount: 7, added: 7 });
    expect(await names(h, 'paged')).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `page_tool_${i}`));
  });

  it('re-lists on list_changed: the catalog follows added and removed tools', async () => {
    const h = await make([fixture('live', 'list-changed.mjs')]);
    await h.gateway.sync(ME);
    expect(await names(h, 'live')).toEqual(['add_tool', 'alpha', 'beta', 'remove_tool']);
    await h.gateway.callTool(ME, 'live/add_tool', { name: 'delta' });
    await waitFor(async () => (await names(h, 'live')).includes('delta'));
    await h.gateway.callTool(ME, 'live/remove_tool', { name: 'alpha' });
    await waitFor(async () => !(await names(h, 'live')).includes('alpha'));
    expect(h.gateway.searchTools(ME, 'delta')[0]?.key).toBe('live/delta');
  });

  it('invalidates only the server whose config changed', async () => {
    const tmp = tempDir();
    const a = fixture('a', 'paginated.mjs');
    const b = fixture('b', 'list-changed.mjs');
    const first = await make([a, b], tmp.dir);
    await first.gateway.sync(ME);
    const seenB = (await first.store.tools.get('b/alpha'))!.firstSeenAt;
    await first.close();
    open = [];
    const changed = stdioServer('a', [...(a.target.kind === 'stdio' ? a.target.args : []), '--extra'], {});
    const second = await make([changed, b], tmp.dir);
    expect(await second.store.servers.get('a')).toMatchObject({ status: 'never', toolCount: 0 });
    expect(await second.store.tools.listByServer('a')).toEqual([]);
    expect(await second.store.servers.get('b')).toMatchObject({ status: 'success', toolCount: 4 });
    const reports = await second.gateway.sync(ME, { onlyStale: true });
    expect(reports.map((r) => r.server)).toEqual(['a']);
    expect((await second.store.tools.get('b/alpha'))!.firstSeenAt).toBe(seenB);
    tmp.cleanup();
  });
});

describe('bad upstreams fail alone with a precise error', () => {
  it('a command that does not exist', async () => {
    const h = await make([
      {
        ...stdioServer('ghost', []),
        target: { kind: 'stdio', command: 'carte-no-such-command', args: [], env: {} },
      },
      fixture('ok', 'paginated.mjs'),
    ]);
    const reports = await h.gateway.sync(ME);
    expect(reports[0]).toMatchObject({
      status: 'failed',
      error: 'server "ghost" cannot start: command "carte-no-such-command" was not found',
    });
    expect(reports[1]).toMatchObject({ status: 'success', toolCount: 7 });
    expect(await h.store.servers.get('ghost')).toMatchObject({ status: 'failed' });
  });

  it('a server that exits at start: failed, with its stderr tail', async () => {
    const h = await make([fixture('dies', 'exit-at-start.mjs')]);
    const [r] = await h.gateway.sync(ME);
    expect(r?.status).toBe('failed');
    expect(r?.error).toBe(
      'server "dies" exited before it finished starting; its stderr ends with: fixture: cannot start, missing FOO_TOKEN',
    );
  });

  it('a server that never answers initialize hits the discovery timeout', async () => {
    const h = await make([fixture('mute', 'hang-init.mjs', { discoveryTimeoutMs: 1500 })]);
    const [r] = await h.gateway.sync(ME);
    expect(r).toMatchObject({ status: 'failed' });
    expect(r?.error).toMatch(/^server "mute" did not (answer initialize|finish discovery) within 1500 ms$/);
  });

  it('a server that never answers tools/list hits the discovery timeout', async () => {
    const h = await make([fixture('slowlist', 'hang-list.mjs', { discoveryTimeoutMs: 1500 })]);
    const [r] = await h.gateway.sync(ME);
    expect(r?.error).toMatch(
      /^server "slowlist" did not (answer tools\/list|finish discovery) within \d+ ms$/,
    );
  });

  it('duplicate names keep the first and warn', async () => {
    const h = await make([fixture('dupes', 'duplicate-names.mjs')]);
    const [r] = await h.gateway.sync(ME);
    expect(r).toMatchObject({
      status: 'success',
      toolCount: 2,
      warnings: ['tool name "dup" is listed more than once; the first is kept'],
    });
  });

  it('a 1 MB schema is stored reduced and flagged, and the sync succeeds', async () => {
    const h = await make([fixture('big', 'huge-schema.mjs')]);
    const [r] = await h.gateway.sync(ME);
    expect(r).toMatchObject({ status: 'success', toolCount: 2 });
    const d = await h.gateway.describeTool(ME, 'big/huge');
    expect(d.schemaTruncatedFromBytes).toBeGreaterThan(1_000_000);
    expect(Buffer.byteLength(JSON.stringify(d.inputSchema))).toBeLessThanOrEqual(64 * 1024);
  });

  it('call_tool on a disabled server or an unknown server', async () => {
    const h = await make([fixture('paged', 'paginated.mjs')]);
    await h.gateway.sync(ME);
    await h.close();
    open = [];
    const off = await make([fixture('paged', 'paginated.mjs', { enabled: false })], h.dir);
    await expect(off.gateway.callTool(ME, 'paged/page_tool_1', {})).rejects.toThrow(
      'server "paged" is disabled in the config; set enabled: true to use it',
    );
    await expect(off.gateway.browseTools(ME, { server: 'pagd' })).rejects.toThrow(
      'unknown server "pagd"; did you mean "paged"?',
    );
  });

  it('call_tool on a server that fails to start', async () => {
    const tmp = tempDir();
    const first = await make([fixture('flaky', 'paginated.mjs')], tmp.dir);
    await first.gateway.sync(ME);
    await first.close();
    open = [];
    // same config hash, but the command now exits at start: the cached tools stay, the call fails
    const broken = {
      ...fixture('flaky', 'exit-at-start.mjs'),
      configHash: fixture('flaky', 'paginated.mjs').configHash,
    };
    const h = await make([broken], tmp.dir);
    // The stderr tail is for the operator only: the message an agent reads does not carry it.
    await expect(h.gateway.callTool(ME, 'flaky/page_tool_1', {})).rejects.toMatchObject({
      message: 'server "flaky" closed the connection during tools/call "page_tool_1"',
      operatorMessage:
        'server "flaky" closed the connection during tools/call "page_tool_1"; its stderr ends with: fixture: cannot start, missing FOO_TOKEN',
    });
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
