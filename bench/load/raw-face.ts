// Part `raw` of bench:load: the HTTP face under the raw load generator (raw-load.ts). One
// `carte serve --http` with everything over stdio behind it, against everything's own Streamable
// HTTP mode called directly, the same connections and worker processes for both arms, in
// alternating segments; CPU per process from /proc, the generator's from its workers.
import type { CompareResult } from './compare.js';
import { CONFIGS, setupCarte } from './configs.js';
import { startCarteHttp, type CarteHttp } from './http-face.js';
import { startEverythingHttp, type HttpUpstream } from './http-upstream.js';
import { childrenOf, cpuTimeMs, memoryOf } from './proc-info.js';
import { RawLoad, recordCall, type RawTarget } from './raw-load.js';
import { emptyStats, mergeStats } from './workload.js';

export interface RawOptions {
  durationMs: number;
  rounds: number;
  warmUpMs: number;
  /** Load-generator processes (the sessions are shared among them). */
  processes: number;
  /** Another build's `bin/carte.js`, served beside this one so a change is measured in one run. */
  baseline?: string;
}

const KEY = 'everything/echo';

export async function rawFaceRows(
  dir: string,
  specs: readonly { sessions: number; era: 'modern' | 'legacy' }[],
  opts: RawOptions,
  step: (what: string) => void,
): Promise<CompareResult[]> {
  const results: CompareResult[] = [];
  const upstream = await startEverythingHttp();
  try {
    const setup = await setupCarte(dir, 'raw', CONFIGS.stdio());
    const builds = [{ build: undefined as string | undefined, carte: await startCarteHttp(setup, dir) }];
    try {
      if (opts.baseline) {
        const base = await setupCarte(dir, 'raw-baseline', CONFIGS.stdio());
        builds.unshift({ build: 'baseline', carte: await startCarteHttp(base, dir, { bin: opts.baseline }) });
        builds[1]!.build = 'this build';
      }
      for (const spec of specs) {
        for (const { build, carte } of builds) {
          step(
            `raw POSTs over HTTP (${spec.era} era), ${spec.sessions} session(s)${build ? `, ${build}` : ''}`,
          );
          const row = await rawCompare(spec, { upstream, carte }, opts);
          results.push(build ? { ...row, build } : row);
        }
      }
    } finally {
      await Promise.all(builds.map((b) => b.carte.stop()));
    }
  } finally {
    await upstream.stop();
  }
  return results;
}

/** Records one call per session and arm, then runs both arms' generators in alternation. */
export async function rawCompare(
  spec: { sessions: number; era: 'modern' | 'legacy' },
  servers: { upstream: HttpUpstream; carte: CarteHttp },
  opts: RawOptions,
): Promise<CompareResult> {
  const { upstream, carte } = servers;
  const n = Array.from({ length: spec.sessions });
  // everything's HTTP mode speaks the 2025 era only: the direct arm is always sessions.
  const direct: RawTarget = { url: upstream.url, era: 'legacy', key: KEY };
  const viaCarte: RawTarget = { url: carte.url, era: spec.era, token: carte.token, key: KEY };
  const recorded = await Promise.all([
    ...n.map(() => recordCall(direct)),
    ...n.map(() => recordCall(viaCarte)),
  ]);
  const conns = recorded.map((r) => r.connection);
  const loads = {
    direct: await RawLoad.start(conns.slice(0, spec.sessions), opts.processes),
    carte: await RawLoad.start(conns.slice(spec.sessions), opts.processes),
  };
  try {
    await loads.direct.segment(opts.warmUpMs);
    await loads.carte.segment(opts.warmUpMs);
    const behindCarte = childrenOf(carte.pid)
      .filter((c) => c.cmd.includes('server-everything'))
      .map((c) => c.pid);
    const idle = memoryOf(carte.pid).rssMiB;
    const cpu = { direct: { client: 0, carte: 0, upstream: 0 }, carte: { client: 0, carte: 0, upstream: 0 } };
    const sum = (pids: number[]) => pids.reduce((a, p) => a + cpuTimeMs(p), 0);
    let d = emptyStats();
    let c = emptyStats();
    const segment = opts.durationMs / opts.rounds;
    for (let r = 0; r < opts.rounds; r++) {
      let before = sum([upstream.pid]);
      const dr = await loads.direct.segment(segment);
      cpu.direct.upstream += sum([upstream.pid]) - before;
      cpu.direct.client += dr.cpuMs;
      d = mergeStats(d, dr.stats);
      before = sum(behindCarte);
      const carteBefore = cpuTimeMs(carte.pid);
      const cr = await loads.carte.segment(segment);
      cpu.carte.upstream += sum(behindCarte) - before;
      cpu.carte.carte += cpuTimeMs(carte.pid) - carteBefore;
      cpu.carte.client += cr.cpuMs;
      c = mergeStats(c, cr.stats);
    }
    const after = memoryOf(carte.pid);
    return {
      upstream: 'stdio',
      face: 'http',
      generator: 'raw',
      era: spec.era,
      sessions: spec.sessions,
      workers: 1,
      direct: d,
      carte: c,
      cpu,
      carteRss: { idle: [idle], loaded: [after.rssMiB], peak: [after.peakMiB] },
    };
  } finally {
    await Promise.all([loads.direct.stop(), loads.carte.stop()]);
    await Promise.all(recorded.map((r) => r.close().catch(() => undefined)));
  }
}
