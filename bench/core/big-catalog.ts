// Writes the big shared catalog into a real Carte data dir: a config file naming every server
// (never started: the command does not exist) and a store filled through the catalog API, one
// discovery per server, so the CLI and `serve` read it like any synced catalog.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyDiscovery } from '../../src/catalog/index.js';
import { loadConfigFile, normaliseServerId } from '../../src/config/index.js';
import { Gateway, openStore, serversFromConfig, type GatewayServer } from '../../src/gateway/index.js';
import type { BenchTool } from './bench-data.js';
import { QUIET } from './logger.js';

/** Never run: a search must not start an upstream, and a start would fail loudly with this name. */
const PLACEHOLDER_COMMAND = 'carte-bench-server-never-started';

export interface BigCatalog {
  configPath: string;
  dataDir: string;
  servers: GatewayServer[];
  toolCount: number;
  /** Writing every server's discovery through `applyDiscovery` (one transaction each, categories included). */
  writeMs: number;
}

/** Groups the bench tools by a valid Carte server id (`@upstash/context7-mcp` becomes `upstash-context7-mcp`). */
function byServer(tools: readonly BenchTool[]): Map<string, BenchTool[]> {
  const groups = new Map<string, BenchTool[]>();
  for (const t of tools) {
    const id = normaliseServerId(t.server);
    groups.set(id, [...(groups.get(id) ?? []), t]);
  }
  return groups;
}

/** Builds `<dir>/carte.json` and `<dir>/data/carte.db` holding the whole catalog. */
export async function writeBigCatalog(dir: string, tools: readonly BenchTool[]): Promise<BigCatalog> {
  const groups = byServer(tools);
  const configPath = join(dir, 'carte.json');
  const dataDir = join(dir, 'data');
  const servers = Object.fromEntries(
    [...groups].map(([id, list]) => {
      const description = list[0]?.server_description?.trim();
      return [id, { command: PLACEHOLDER_COMMAND, ...(description ? { description } : {}) }];
    }),
  );
  writeFileSync(configPath, JSON.stringify({ servers }, null, 1));
  const loaded = loadConfigFile(configPath, { env: {}, dataDir });
  if (!loaded.ok || !loaded.config) {
    throw new Error(`big catalog config is invalid: ${JSON.stringify(loaded.errors.slice(0, 3))}`);
  }
  const gatewayServers = serversFromConfig(loaded.config);
  const store = await openStore(join(dataDir, 'carte.db'));
  // Opening the gateway records each server's config hash, as the CLI will on every start.
  await (await Gateway.open({ servers: gatewayServers, store, logger: QUIET })).close();
  const start = performance.now();
  let toolCount = 0;
  for (const [id, list] of groups) {
    const listed = list.map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      inputSchema: t.inputSchema ?? { type: 'object' },
    }));
    const serverDescription = list[0]?.server_description?.trim() || undefined;
    const discovery = { tools: listed, protocolEra: 'legacy', serverName: id };
    toolCount += (await applyDiscovery(store, id, discovery, { serverDescription })).toolCount;
  }
  const writeMs = performance.now() - start;
  await store.close();
  return { configPath, dataDir, servers: gatewayServers, toolCount, writeMs };
}
