import type { SyncReport } from '../../catalog/index.js';
import type { DiscoveryStatus } from '../../store/index.js';
import { disabled } from './call-checks.js';
import type { GatewayServer } from '../shared/types.js';
import type { Upstreams } from './upstreams.js';

/** What `Gateway.sync` discovers and whom it tells as each server starts and ends. */
export interface SyncRequest {
  /** One server (even a disabled one is named, and refused); else every enabled server. */
  server?: string;
  /** Only servers whose last discovery did not succeed. */
  onlyStale?: boolean;
  onReport?: (r: SyncReport) => void;
  onStart?: (id: string) => void;
}

/** Discovers the targets in parallel and reports each as it ends. */
export function syncServers(
  upstreams: Upstreams,
  targets: GatewayServer[],
  opts: SyncRequest,
  statusOf: (id: string) => DiscoveryStatus | undefined,
): Promise<SyncReport[]> {
  const chosen = opts.onlyStale ? targets.filter((s) => statusOf(s.id) !== 'success') : targets;
  if (opts.server && !chosen[0]?.enabled) throw disabled(opts.server);
  return Promise.all(
    chosen.map(async (s) => {
      opts.onStart?.(s.id);
      const report = await upstreams.sync(s);
      opts.onReport?.(report);
      return report;
    }),
  );
}
