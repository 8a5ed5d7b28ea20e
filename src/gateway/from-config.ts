import {
  describeServerTarget,
  serverConfigHash,
  type CarteConfig,
  type ServerConfig,
} from '../config/index.js';
import type { UpstreamTarget } from '../upstream/index.js';
import type { GatewayServer } from './shared/types.js';

/** The gateway's view of each configured server (resolved values; display strings masked). */
export function serversFromConfig(config: CarteConfig): GatewayServer[] {
  return Object.entries(config.servers).map(([id, s]) => ({
    id,
    enabled: s.enabled,
    timeoutMs: s.timeoutMs,
    discoveryTimeoutMs: s.discoveryTimeoutMs,
    idleTimeoutMs: s.idleTimeoutMs,
    maxConcurrency: s.maxConcurrency,
    maxQueue: s.maxQueue,
    configHash: serverConfigHash(s),
    target: toTarget(s),
    display: describeServerTarget(id, s),
    ...(s.description ? { description: s.description } : {}),
    ...(s.trusted !== undefined ? { trusted: s.trusted } : {}),
    pin: s.trust.pin,
  }));
}

function toTarget(s: ServerConfig): UpstreamTarget {
  if (s.kind === 'stdio') {
    return {
      kind: 'stdio',
      command: s.command,
      args: s.args,
      env: s.env,
      ...(s.cwd ? { cwd: s.cwd } : {}),
      // The config resolves `true` to settings; anything else left here means unconfined.
      ...(typeof s.sandbox === 'object' ? { sandbox: s.sandbox } : {}),
    };
  }
  return {
    kind: 'remote',
    url: s.url,
    headers: s.headers,
    ...(s.transport ? { transport: s.transport } : {}),
    ...(s.oauth ? { oauth: s.oauth } : {}),
  };
}
