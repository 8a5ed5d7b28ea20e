// Finding a configured server or a catalog tool by what a caller typed, with errors that say
// why it is missing and what was probably meant; and a server's summary for listings.
import { closestKeys } from '../../catalog/index.js';
import { CarteError, quote } from '../../errors.js';
import type { VisibilityPolicy } from '../../policy/index.js';
import type { Store, ToolRow } from '../../store/index.js';
import type { CatalogMirror } from '../shared/catalog-mirror.js';
import { loginCommand, type SandboxSpec } from '../../upstream/index.js';
import type { GatewayServer, SandboxView, ServerSummary } from '../shared/types.js';
import type { ToolRows } from './tool-rows.js';
import type { Upstreams } from './upstreams.js';
import { isPerUser, perUserSignInNeeded } from './per-user.js';

/** The configured server, or a clear error naming the unknown id and the closest one. */
export function lookupServer(servers: ReadonlyMap<string, GatewayServer>, id: string): GatewayServer {
  const s = servers.get(id);
  if (s) return s;
  const near = closestKeys(id, [...servers.keys()], 1);
  throw new CarteError(
    'unknown_server',
    `unknown server ${quote(id)}${near[0] ? `; did you mean "${near[0]}"?` : ''}`,
  );
}

/** What a tool lookup reads: the caller's policy and servers (only on a miss), and the stored rows. */
export interface ToolLookup {
  servers: () => ReadonlyMap<string, GatewayServer>;
  policy: VisibilityPolicy;
  rows: Pick<ToolRows, 'get'>;
}

/**
 * A stored tool the caller may see, or an error saying why there is none (and near visible keys).
 * A hidden tool answers exactly like an unknown one, and is never suggested.
 */
export async function lookupTool(store: Store, lookup: ToolLookup, key: string): Promise<ToolRow> {
  const { policy } = lookup;
  const t = typeof key === 'string' && policy.canSee(key) ? await lookup.rows.get(key) : undefined;
  if (t) return t;
  const servers = lookup.servers();
  const serverId = String(key).split('/')[0] ?? '';
  const row = servers.has(serverId) ? await store.servers.get(serverId) : undefined;
  if (row && row.status !== 'success' && row.toolCount === 0) {
    const head = `unknown tool ${quote(key)}: server "${serverId}" has no tools in the catalog because`;
    if (row.status === 'needs_sign_in' && isPerUser(servers.get(serverId)!))
      throw perUserSignInNeeded(serverId, undefined, `${head} nobody has linked their account yet`);
    if (row.status === 'needs_sign_in')
      throw new CarteError('needs_sign_in', `${head} it needs a sign-in; run \`${loginCommand(serverId)}\``, {
        details: { server: serverId, signIn: loginCommand(serverId) },
      });
    if (row.status !== 'failed')
      throw new CarteError('unknown_tool', `${head} it has not been discovered yet; run \`carte sync\``);
    // Why discovery failed may quote a command line or a path: only the operator reads it.
    throw new CarteError('unknown_tool', `${head} its discovery failed; \`carte servers\` says why`, {
      operatorMessage: `${head} its discovery failed: ${row.lastError ?? 'unknown error'}`,
    });
  }
  const near = closestKeys(String(key), policy.visibleKeys());
  const hint = near.length ? `; did you mean ${near.map((k) => `"${k}"`).join(' or ')}?` : '';
  throw new CarteError('unknown_tool', `unknown tool ${quote(key)}${hint}`, {
    details: { suggestions: near },
  });
}

/** A server as listings show it: config, stored discovery state and live connection state. */
export function serverSummary(
  mirror: Pick<CatalogMirror, 'server'>,
  upstreams: Upstreams,
  s: GatewayServer,
): ServerSummary {
  const row = mirror.server(s.id);
  return {
    id: s.id,
    enabled: s.enabled,
    status: s.enabled ? (row?.status ?? 'never') : 'disabled',
    toolCount: row?.toolCount ?? 0,
    state: upstreams.state(s, row),
    connected: upstreams.isConnected(s.id),
    activeCalls: upstreams.life(s.id).active,
    queuedCalls: upstreams.life(s.id).queued,
    lastDiscoveryAt: row?.lastDiscoveryAt ?? null,
    // A fault since the last success (a crash, a sandbox limit), else the last discovery's error.
    lastError: upstreams.life(s.id).lastError ?? row?.lastError ?? null,
    target: s.display,
    ...(s.description ? { description: s.description } : {}),
    ...(s.target.kind === 'stdio' ? { sandbox: sandboxView(s.target.sandbox) } : {}),
  };
}

function sandboxView(spec: SandboxSpec | undefined): SandboxView | null {
  if (!spec) return null;
  return {
    network: spec.network,
    ...(spec.memoryMb ? { memoryMb: spec.memoryMb } : {}),
    ...(spec.maxProcesses ? { maxProcesses: spec.maxProcesses } : {}),
  };
}

/** Each server's description for search: the configured one, else the server's own instructions. */
export function serverDescriptions(
  mirror: Pick<CatalogMirror, 'servers'>,
  servers: ReadonlyMap<string, GatewayServer>,
): Map<string, string> {
  return new Map(
    [...mirror.servers.values()].flatMap((r) => {
      const d = servers.get(r.id)?.description ?? r.instructions;
      return d ? [[r.id, d] as const] : [];
    }),
  );
}
