import type { ApprovalSite } from '../gateway/index.js';
import type { HttpDeps } from './shared/types.js';

/**
 * Where `/mcp`'s request_server proposals go under `registration.agentRequests`: the config file
 * approvals write to. Without one (the bundled demo) the fifth tool is not offered.
 */
export function agentRequestSite(deps: HttpDeps, enabled: boolean | undefined): ApprovalSite | undefined {
  if (!enabled || deps.configPath === undefined) return undefined;
  const site = { gateway: deps.gateway, store: deps.store, configPath: deps.configPath };
  return { ...site, env: deps.env ?? {}, ...(deps.dataDir === undefined ? {} : { dataDir: deps.dataDir }) };
}
