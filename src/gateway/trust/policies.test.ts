import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/index.js';
import { Policies } from './policies.js';
import type { GatewayProject } from '../access/projects.js';

// The quarantine's signature is read once per event-loop turn (docs/benchmarks.md, "The HTTP
// face's per-call cost"), and a change by another connection is still noticed on the next turn.

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const PROJECT: GatewayProject = { id: 'default', servers: 'all', deny: [], confirm: [] };
const CALLER = { projectId: 'default', scopes: ['call'] };

describe('Policies: the quarantine signature', () => {
  it('is read once per turn, and a change by another connection reaches the next turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-policies-'));
    dirs.push(dir);
    const store = openStore(join(dir, 'carte.db'));
    const other = openStore(store.path); // another process's connection (`carte approve`)
    stores.push(store, other);
    const reads = vi.spyOn(store.trust, 'signature');
    let changes = 0;
    const policies = new Policies(
      {
        store,
        externalChange: () => changes++,
        servers: () => new Map(),
        quarantined: () => new Map(),
      },
      undefined,
      new Map([['default', PROJECT]]),
    );
    policies.forCaller(CALLER);
    policies.catalog();
    policies.forCaller(CALLER);
    expect(reads).toHaveBeenCalledTimes(1);

    await nextTurn();
    other.trust.putQuarantine({
      key: 's/t',
      serverId: 's',
      kind: 'drift',
      reason: 'x',
      findings: [],
      since: 1,
    });
    policies.forCaller(CALLER);
    expect(reads).toHaveBeenCalledTimes(2);
    expect(changes).toBe(1);

    // An invalidation (a change through this gateway) reads again within the same turn.
    policies.invalidate();
    policies.forCaller(CALLER);
    expect(reads).toHaveBeenCalledTimes(3);
    expect(changes).toBe(1);
  });
});
