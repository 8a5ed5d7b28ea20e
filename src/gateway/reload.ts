import type { SyncReport } from '../catalog/index.js';
import type { GatewayServer } from './types.js';

/** What a config reload changed, by server id. */
export interface ReloadReport {
  added: string[];
  removed: string[];
  /** The target changed (command, args, env, url, headers): restarted and rediscovered. */
  changed: string[];
  /** Only settings changed (timeouts, limits, enabled, description): connection kept. */
  updated: string[];
  syncs: SyncReport[];
}

/** Pure diff of the running server list against a new one. */
export function planReload(
  current: ReadonlyMap<string, GatewayServer>,
  next: readonly GatewayServer[],
): Omit<ReloadReport, 'syncs'> {
  const plan: Omit<ReloadReport, 'syncs'> = { added: [], removed: [], changed: [], updated: [] };
  const ids = new Set(next.map((s) => s.id));
  for (const id of current.keys()) if (!ids.has(id)) plan.removed.push(id);
  for (const s of next) {
    const old = current.get(s.id);
    if (!old) plan.added.push(s.id);
    else if (old.configHash !== s.configHash) plan.changed.push(s.id);
    else if (JSON.stringify(old) !== JSON.stringify(s)) plan.updated.push(s.id);
  }
  return plan;
}
