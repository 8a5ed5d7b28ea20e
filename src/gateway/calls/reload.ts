import type { SyncReport } from '../../catalog/index.js';
import type { Store } from '../../store/index.js';
import type { GatewayServer } from '../shared/types.js';
import type { Upstreams } from './upstreams.js';
import { isPerUser } from './per-user.js';
import type { CompiledRules } from '../../policy/index.js';
import type { GatewayProject } from '../access/projects.js';
import type { HotListOptions } from '../menu/hot-list.js';

/** What a reloaded config changes besides the servers: rules, projects, the hot list's options. */
export interface ReloadPolicy {
  rules?: CompiledRules;
  projects?: ReadonlyMap<string, GatewayProject>;
  hotList?: Partial<HotListOptions>;
}

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

/**
 * Applies a new server list: removed servers stop and lose their tools; servers whose target
 * changed restart and are rediscovered; new ones are discovered; the others keep their
 * connections and in-flight calls and only take the new settings.
 */
export async function applyReload(
  deps: { store: Store; upstreams: Upstreams },
  current: ReadonlyMap<string, GatewayServer>,
  servers: readonly GatewayServer[],
  changed: () => Promise<void>,
): Promise<ReloadReport> {
  const { store, upstreams } = deps;
  const next = new Map(servers.map((s) => [s.id, s]));
  const report: ReloadReport = { ...planReload(current, servers), syncs: [] };
  for (const id of [...report.removed, ...report.changed]) await upstreams.close(id);
  // A server turned per-user (or back) drops the connections opened with the other identity.
  const turned = (id: string) => isPerUser(current.get(id)!) !== isPerUser(next.get(id)!);
  for (const id of report.updated) if (!next.get(id)!.enabled || turned(id)) await upstreams.close(id);
  await store.servers.pruneExcept([...next.keys()]);
  for (const s of servers) await store.servers.reconcileConfig(s.id, s.configHash);
  await changed();
  const rediscover = [...report.added, ...report.changed].map((id) => next.get(id)!).filter((s) => s.enabled);
  report.syncs = await Promise.all(rediscover.map((s) => upstreams.sync(s)));
  return report;
}
