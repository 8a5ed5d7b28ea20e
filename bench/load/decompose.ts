// Where Carte's added latency goes, one call in flight over stdio: the same loop straight to the
// server, through an in-process `Gateway` (Carte's core and its upstream client, no downstream
// hop), and through `carte serve` (plus the MCP server face and one more process hop).
import { join } from 'node:path';
import { loadConfigFile } from '../../src/config/index.js';
import { Gateway, LOCAL_CALLER, openStore, serversFromConfig } from '../../src/gateway/index.js';
import { QUIET } from '../core/logger.js';
import type { CarteSetup } from './configs.js';
import { closeAll, openSession, type Session } from './sessions.js';
import { emptyStats, mergeStats, runLoop, type LoopStats } from './workload.js';

export interface Decomposition {
  direct: LoopStats;
  gateway: LoopStats;
  carte: LoopStats;
}

/** A Session over an in-process gateway, so the same loop drives it. */
async function gatewaySession(setup: CarteSetup): Promise<Session> {
  const loaded = loadConfigFile(setup.config, { env: {}, dataDir: setup.dataDir });
  if (!loaded.config) throw new Error(`cannot load ${setup.config}`);
  const store = await openStore(join(setup.dataDir, 'carte.db'));
  const gateway = await Gateway.open({ servers: serversFromConfig(loaded.config), store, logger: QUIET });
  return {
    pid: null,
    stderrTail: () => '',
    call: async (key, args) => {
      try {
        const r = await gateway.callTool(LOCAL_CALLER, key, args);
        return r.isError === true ? { ok: false, error: 'tool error' } : { ok: true };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message.slice(0, 120) : String(err) };
      }
    },
    close: async () => {
      await gateway.close();
      await store.close();
    },
  };
}

export async function decompose(
  setup: CarteSetup,
  opts: { durationMs: number; rounds: number },
): Promise<Decomposition> {
  const sessions = {
    direct: await openSession({ kind: 'direct-stdio' }),
    gateway: await gatewaySession(setup),
    carte: await openSession({ kind: 'carte', ...setup }),
  };
  const arms = Object.keys(sessions) as (keyof Decomposition)[];
  try {
    const loop = { key: 'everything/echo', workers: 1, durationMs: opts.durationMs / opts.rounds };
    for (const arm of arms) await runLoop([sessions[arm]], { ...loop, durationMs: 300 }); // warm-up
    const result: Decomposition = { direct: emptyStats(), gateway: emptyStats(), carte: emptyStats() };
    for (let r = 0; r < opts.rounds; r++) {
      for (const arm of arms) result[arm] = mergeStats(result[arm], await runLoop([sessions[arm]], loop));
    }
    return result;
  } finally {
    await closeAll(Object.values(sessions));
  }
}
