import type { Store } from '../../store/index.js';
import { toCarteError } from '../../errors.js';
import { buildToolRecord, RECORD_DEFAULTS, type ListedTool, type RecordLimits } from './records.js';
import { dedupeByKey, diffTools } from './diff.js';
import { categorizeStoredServer } from '../categories/store-categories.js';
import { applyTrust } from '../trust/trust.js';

/** What one discovery of an upstream returned. */
export interface Discovery {
  tools: ListedTool[];
  protocolEra?: string;
  serverName?: string;
  serverVersion?: string;
  instructions?: string;
  /** The 2026-07-28 `server/discover` result, kept for probe-free reconnects. */
  discoverResult?: unknown;
}

/** The outcome of syncing one server, for progress output and `--json`. */
export interface SyncReport {
  server: string;
  /** `needs_sign_in`: the server answered HTTP 401 (`carte auth login <id>`). */
  status: 'success' | 'failed' | 'needs_sign_in';
  toolCount: number;
  added: number;
  changed: number;
  removed: number;
  durationMs: number;
  error?: string;
  warnings: string[];
}

export interface SyncOptions {
  limits?: RecordLimits;
  now?: () => Date;
  /** The server's configured description: evidence for its tools' categories. */
  serverDescription?: string;
  /** Pin tools and quarantine drift (the server's `trust.pin`; default true). Scanning is always on. */
  pin?: boolean;
}

/**
 * Discovers one server and writes the result: a pure diff of listed vs stored, applied in one
 * transaction with the server's new status. A failed discovery keeps the cached tools and
 * records the error; it never leaves a half-written catalog.
 */
export async function syncServer(
  store: Store,
  serverId: string,
  discover: () => Promise<Discovery>,
  options: SyncOptions = {},
): Promise<SyncReport> {
  const started = Date.now();
  const now = () => (options.now ?? (() => new Date()))().toISOString();
  await store.servers.setStatus(serverId, 'discovering');
  let discovery: Discovery;
  try {
    discovery = await discover();
  } catch (err) {
    const carteErr = toCarteError(err);
    const message = carteErr.operatorMessage;
    const status = carteErr.code === 'needs_sign_in' ? ('needs_sign_in' as const) : ('failed' as const);
    await store.servers.recordDiscovery(serverId, { status, at: now(), error: message });
    const toolCount = (await store.servers.get(serverId))?.toolCount ?? 0;
    const base = { server: serverId, status, toolCount, added: 0, changed: 0, removed: 0 };
    return { ...base, durationMs: Date.now() - started, error: message, warnings: [] };
  }
  return {
    ...(await applyDiscovery(store, serverId, discovery, { ...options, now: () => new Date(now()) })),
    durationMs: Date.now() - started,
  };
}

/**
 * Writes a listing already in hand (a discovery, or a re-list after `list_changed`). When a tool
 * was added, changed or removed, or one has no stored category yet, the server's categories are
 * recomputed in the same transaction, so they follow the content hashes. The same transaction
 * scans, pins and quarantines the listing (trust.ts).
 */
export async function applyDiscovery(
  store: Store,
  serverId: string,
  discovery: Discovery,
  options: SyncOptions = {},
): Promise<SyncReport> {
  const at = (options.now ?? (() => new Date()))().toISOString();
  const warnings: string[] = [];
  const built = [];
  for (const tool of discovery.tools) {
    const r = buildToolRecord(serverId, tool, at, options.limits ?? RECORD_DEFAULTS);
    if (r.warning) warnings.push(r.warning);
    if (r.ok) built.push(r.row);
  }
  const { rows, warnings: dupes } = dedupeByKey(built);
  warnings.push(...dupes);
  const changes = await store.transaction(async (tx) => {
    const firstDiscovery = ((await tx.servers.get(serverId))?.lastDiscoveryAt ?? null) === null;
    const diff = diffTools(await tx.tools.listByServer(serverId), rows);
    await tx.tools.applyChanges(diff, at);
    await applyTrust(tx, serverId, rows, { pin: options.pin ?? true, firstDiscovery, now: Date.parse(at) });
    const touched = diff.added.length + diff.changed.length + diff.removed.length > 0;
    if (touched || (await tx.tools.hasMissingCategories(serverId))) {
      await categorizeStoredServer(tx, { id: serverId, description: options.serverDescription });
    }
    await tx.servers.recordDiscovery(serverId, {
      status: 'success',
      at,
      error: null,
      toolCount: rows.length,
      protocolEra: discovery.protocolEra ?? null,
      serverName: discovery.serverName ?? null,
      serverVersion: discovery.serverVersion ?? null,
      instructions: discovery.instructions ?? null,
      warnings,
      discoverResult: discovery.discoverResult ?? null,
    });
    return diff;
  });
  return {
    server: serverId,
    status: 'success',
    toolCount: rows.length,
    added: changes.added.length,
    changed: changes.changed.length,
    removed: changes.removed.length,
    durationMs: 0,
    warnings,
  };
}
