// A catalog ready to browse: a real Gateway over a temp store that already holds the catalog
// (written by bench/core/big-catalog.ts, or the demo synced by demo-catalog.ts), given a call
// history so the hot list (T0) is full and a few pin rules, like a deployment in use for a week.
// Nothing here starts an upstream: browse and describe read the store only.
import { join } from 'node:path';
import { Gateway, openStore, type Store } from '../../src/gateway/index.js';
import { compileRules } from '../../src/policy/index.js';
import { QUIET } from '../core/logger.js';
import type { StoredCatalog } from './demo-catalog.js';
import type { ListedTool } from './listings.js';

/** Tools pinned by a rule (`{match: key, pin: true}`), and tools given calls. */
export const PINNED = 3;
export const USED = 15;
const DAY_MS = 86_400_000;

/** A catalog measured by the tier bench. */
export interface MenuCatalog {
  label: string;
  servers: number;
  /** Every tool, as a gateway without meta-tools would list it (the denominator). */
  tools: readonly ListedTool[];
  gateway: Gateway;
  close: () => Promise<void>;
}

/** Keys a glob matches only literally, so a pin rule names exactly one tool. */
const PLAIN_KEY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** `n` keys spread evenly over the sorted catalog (deterministic, no favourite server). */
function spread(keys: readonly string[], n: number): string[] {
  const sorted = keys.filter((k) => PLAIN_KEY.test(k)).sort();
  const step = Math.max(1, Math.floor(sorted.length / n));
  return Array.from({ length: Math.min(n, sorted.length) }, (_, i) => sorted[i * step]!);
}

/** Calls over the last week: the first used tool most often, each next one a little less. */
async function recordCalls(store: Store, keys: readonly string[], now: number): Promise<void> {
  for (const [i, key] of keys.entries()) {
    const calls = 2 * (keys.length - i);
    for (let j = 0; j < calls; j++) {
      const at = now - Math.floor(((j + 0.5) / calls) * 7 * DAY_MS);
      const server = key.slice(0, key.indexOf('/'));
      await store.activity.record({ kind: 'call', key, server, outcome: 'ok', durationMs: 1, at });
    }
  }
}

/** Opens the stored catalog with call history and pins; `close` closes the gateway and the store. */
export async function openMenuCatalog(
  label: string,
  stored: StoredCatalog,
  tools: readonly ListedTool[],
): Promise<MenuCatalog> {
  const store = await openStore(join(stored.dataDir, 'carte.db'));
  const picked = spread(
    tools.map((t) => t.name),
    PINNED + USED,
  );
  await recordCalls(store, picked.slice(PINNED), Date.now());
  const rules = compileRules(picked.slice(0, PINNED).map((key) => ({ match: key, pin: true })));
  const gateway = await Gateway.open({ servers: stored.servers, store, logger: QUIET, rules });
  return {
    label,
    servers: stored.servers.length,
    tools,
    gateway,
    close: async () => {
      await gateway.close();
      await store.close();
    },
  };
}
