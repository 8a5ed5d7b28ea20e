import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { approveTool } from '../../../src/catalog/index.js';
import {
  createToken,
  Gateway,
  LOCAL_CALLER as ME,
  openStore,
  resolveBearer,
  revokeToken,
  type Store,
} from '../../../src/gateway/index.js';
import { createDatabase, PG_RUN_URL } from '../../../src/store/test-engines.js';
import { fixture, memoryLogger } from '../helpers.js';

// Slow: two gateways on one PostgreSQL database, as two replicas of a team's Carte would run
// (issue 26, item 3): what one writes, the other honours without a restart.
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** How long a replica may take to hear of another's change here (the 1 s of the issue, with room for a loaded CI machine). */
const HEARD_WITHIN_MS = 5_000;

async function replica(url: string, servers = [fixture('p', 'poisoned.mjs')]) {
  const store = await openStore(url);
  const logger = memoryLogger();
  const gateway = await Gateway.open({ servers, store, logger });
  closing.push(async () => {
    await gateway.close();
    await store.close();
  });
  return { store, gateway, logger };
}

/** Polls `check` until it is true or HEARD_WITHIN_MS passes; returns whether it became true. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + HEARD_WITHIN_MS;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Every payload sent on the channel replicas listen on (docs/operations.md, "What replicas
 * share"), heard on a connection of the test's own. `fence()` sends a marker and waits for it:
 * PostgreSQL delivers notifications in commit order, so whatever a write committed before the
 * fence sent has arrived by then, without waiting on a clock.
 */
async function listen(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  closing.push(() => client.end());
  const payloads: string[] = [];
  let fences = 0;
  client.on('notification', (n) => payloads.push(n.payload ?? ''));
  await client.query('LISTEN carte_changes');
  return {
    /** The catalog notifications heard since the last call, cleared. */
    catalog: () => payloads.splice(0).filter((p) => p.endsWith(' catalog')),
    async fence() {
      const marker = `fence ${++fences}`;
      await client.query('SELECT pg_notify($1, $2)', ['carte_changes', marker]);
      expect(await eventually(() => payloads.includes(marker))).toBe(true);
    },
  };
}

const found = async (g: Gateway, query: string, key: string) =>
  (await g.searchToolsAsync(ME, query, { limit: 20 })).some((r) => r.key === key);

describe.skipIf(PG_RUN_URL === '')('replicas on one PostgreSQL database', () => {
  it("a sync on one replica reaches the other's search, and so does an approval", async () => {
    const url = await createDatabase();
    const a = await replica(url);
    const b = await replica(url);
    expect(await found(b.gateway, 'echo', 'p/echo')).toBe(false);
    const [report] = await a.gateway.sync(ME);
    expect(report?.status).toBe('success');
    expect(await eventually(() => found(b.gateway, 'echo', 'p/echo'))).toBe(true);
    // Quarantined by A's sync: hidden on B too, until a person approves it on A.
    expect(await found(b.gateway, 'weather', 'p/get_weather')).toBe(false);
    await approveTool(a.store, 'p/get_weather');
    expect(await eventually(() => found(b.gateway, 'weather', 'p/get_weather'))).toBe(true);
    expect(b.gateway.listServers(ME).find((s) => s.id === 'p')?.toolCount).toBe(8);
  });

  it('a discovery that changes nothing wakes no replica; one that changes the catalog does, and the other sees it', async () => {
    const url = await createDatabase();
    const heard = await listen(url);
    const a = await replica(url);
    const b = await replica(url);
    await a.gateway.sync(ME);
    await heard.fence();
    expect(heard.catalog().length).toBeGreaterThan(0); // the first discovery adds the tools
    expect(await eventually(() => found(b.gateway, 'echo', 'p/echo'))).toBe(true);

    const [again] = await a.gateway.sync(ME); // the same tools, one held in quarantine as before
    expect(again).toMatchObject({ status: 'success', added: 0, changed: 0, removed: 0 });
    await heard.fence();
    expect(heard.catalog()).toEqual([]);

    const failed = { status: 'failed', at: new Date().toISOString(), error: 'connection refused' } as const;
    await a.store.servers.recordDiscovery('p', failed);
    await heard.fence();
    expect(heard.catalog()).toHaveLength(1);
    const shown = () => b.gateway.listServers(ME).find((s) => s.id === 'p');
    expect(await eventually(() => shown()?.lastError === 'connection refused')).toBe(true);
    expect(shown()?.status).toBe('failed');
    await a.store.servers.recordDiscovery('p', { ...failed, at: new Date().toISOString() }); // failing alike
    await heard.fence();
    expect(heard.catalog()).toEqual([]);

    await a.gateway.sync(ME); // back: the status and the error change again
    await heard.fence();
    expect(heard.catalog()).toHaveLength(1);
    expect(await eventually(() => shown()?.status === 'success')).toBe(true);

    // B reads the catalog while A discovers the server; the discovery then ends finding what the
    // last one found, with no notification: B reads the server's row again by itself.
    await a.store.servers.setStatus('p', 'discovering');
    await a.store.tools.setCategories([]); // any catalog notification: B reads everything again
    expect(await eventually(() => shown()?.status === 'discovering')).toBe(true);
    await a.gateway.sync(ME);
    await heard.fence();
    expect(heard.catalog()).toEqual([expect.stringMatching(/ catalog$/)]); // setCategories' only
    expect(await eventually(() => shown()?.status === 'success')).toBe(true);
  });

  it('two replicas syncing one server at once take turns and agree on the catalog', async () => {
    const url = await createDatabase();
    const a = await replica(url);
    const b = await replica(url);
    const reports = await Promise.all([a.gateway.sync(ME), b.gateway.sync(ME)]);
    expect(reports.flat().map((r) => r.status)).toEqual(['success', 'success']);
    // One of them added the tools, the other found nothing new: the syncs did not interleave.
    expect(
      reports
        .flat()
        .map((r) => r.added)
        .sort(),
    ).toEqual([0, 8]);
    const keys = async (s: Store) => (await s.tools.listKeys()).length;
    expect(await keys(a.store)).toBe(8);
  });

  it("a replica that opens with a server's config changed drops its tools for the others too", async () => {
    const url = await createDatabase();
    const heard = await listen(url);
    const a = await replica(url);
    await a.gateway.sync(ME);
    expect(await found(a.gateway, 'echo', 'p/echo')).toBe(true);
    await heard.fence();
    heard.catalog();
    // Another target for "p" (a deploy, or an env var that expands otherwise): its tools go.
    const b = await replica(url, [fixture('p', 'poisoned.mjs', { env: { CHANGED: '1' } })]);
    expect(b.logger.lines).toContain(
      'warn: server "p" is configured differently from the database\'s copy (another replica\'s config, or an env var expanding otherwise): its tools are dropped for every replica until it is discovered again',
    );
    await heard.fence();
    expect(heard.catalog()).toHaveLength(1);
    expect(await eventually(async () => !(await found(a.gateway, 'echo', 'p/echo')))).toBe(true);
    expect(a.gateway.listServers(ME).find((s) => s.id === 'p')).toMatchObject({
      status: 'never',
      toolCount: 0,
    });
  });

  it('a token revoked through one replica stops working on the other', async () => {
    const url = await createDatabase();
    const a = await replica(url, []);
    const b = await replica(url, []);
    const projects = { has: (id: string) => id === 'default' };
    const created = await createToken(a.store, { project: 'default', scopes: ['call'] }, Date.now());
    const bearer = `Bearer ${created.token}`;
    const onB = () => resolveBearer(b.store, bearer, { now: Date.now(), projects });
    expect((await onB()).tokenId).toBe(created.id);
    await revokeToken(a.store, created.id, Date.now());
    const refused = async () =>
      onB().then(
        () => false,
        () => true,
      );
    expect(await eventually(refused)).toBe(true);
    await expect(onB()).rejects.toThrow(`token ${created.id} was revoked`);
  });
});
