import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/index.js';
import { Policies } from './policies.js';
import { CatalogMirror } from '../shared/catalog-mirror.js';
import type { GatewayProject } from '../access/projects.js';

// The quarantine's signature is read once per event-loop turn (docs/history/benchmarks-history.md, "How we
// got here": the third pass), and a change by another connection is still noticed on the next turn.

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const PROJECT: GatewayProject = { id: 'default', servers: 'all', deny: [], confirm: [] };
const CALLER = { projectId: 'default', scopes: ['call'] };

describe('Policies: the quarantine signature', () => {
  it('is read once by requests in flight together, and a change by another connection reaches the next request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-policies-'));
    dirs.push(dir);
    const store = await openStore(join(dir, 'carte.db'));
    const other = await openStore(store.path); // another process's connection (`carte approve`)
    stores.push(store, other);
    const mirror = new CatalogMirror(store);
    await mirror.load();
    const reads = vi.spyOn(store.trust, 'signature');
    let changes = 0;
    const policies = new Policies(
      {
        mirror,
        externalChange: () => {
          changes++;
          return Promise.resolve();
        },
        servers: () => new Map(),
      },
      undefined,
      new Map([['default', PROJECT]]),
    );
    // What the gateway's async entry points do: notice an external change, then ask the policy.
    const forCaller = async () => {
      await policies.noticeExternalChange();
      return policies.forCaller(CALLER);
    };
    await Promise.all([forCaller(), policies.noticeExternalChange(), forCaller()]);
    policies.catalog();
    expect(reads).toHaveBeenCalledTimes(1);

    await other.trust.putQuarantine({
      key: 's/t',
      serverId: 's',
      kind: 'drift',
      reason: 'x',
      findings: [],
      since: 1,
    });
    await forCaller();
    expect(reads).toHaveBeenCalledTimes(2);
    expect(changes).toBe(1);

    // A change through this gateway reloads the mirror (reading the signature with it) and
    // invalidates: the next request is not taken for an external change.
    await mirror.load();
    policies.invalidate();
    await forCaller();
    expect(reads).toHaveBeenCalledTimes(4);
    expect(changes).toBe(1);
  });
});
