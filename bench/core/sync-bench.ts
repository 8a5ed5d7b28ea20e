// (a) `carte sync` of the bundled demo config, cold and warm, against spawning the same servers directly.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runOk, type CliRun } from './proc.js';
import { ROOT, tempDir } from './paths.js';
import { median, ms, ratio } from './stats.js';
import { progress, table } from './report.js';

interface Baseline {
  bootMs: number;
  allListedMs: number;
  closedMs: number;
  perServer: Record<string, { tools: number; connectMs: number; listMs: number; totalMs: number }>;
}

interface Report {
  server: string;
  status: string;
  toolCount: number;
  durationMs: number;
}

const ARMS = ['cold', 'warm', 'direct', 'directAuto', 'cliNoop', 'nodeBare'] as const;
type Arm = (typeof ARMS)[number];

export interface SyncBench {
  runs: number;
  wallMs: Record<Arm, number[]>;
  /** CPU of the whole process tree (the CLI and the servers it reaped), when GNU time is there. */
  cpuMs: Record<Arm, number[]>;
  /** Slowest server's own durationMs in each Carte sync (what the progress lines show). */
  slowestServerMs: { cold: number[]; warm: number[] };
  /** Slowest server's spawn+initialize+list inside the baseline process. */
  directSlowestMs: { direct: number[]; directAuto: number[] };
  toolCounts: Record<string, number>;
  /** A synced demo data dir, kept for the search and serve benches. */
  dataDir: string;
  cwd: string;
  cleanup: () => void;
}

/** Runs `runs` rounds; each round uses a fresh data dir and runs every arm once, in the same order. */
export async function benchSync(runs: number): Promise<SyncBench> {
  const perArm = () => Object.fromEntries(ARMS.map((a) => [a, [] as number[]])) as Record<Arm, number[]>;
  const wallMs = perArm();
  const cpuMs = perArm();
  const record = (arm: Arm, run: CliRun) => {
    wallMs[arm].push(run.ms);
    if (run.cpuMs !== undefined) cpuMs[arm].push(run.cpuMs);
  };
  const slowestServerMs = { cold: [] as number[], warm: [] as number[] };
  const directSlowestMs = { direct: [] as number[], directAuto: [] as number[] };
  let toolCounts: Record<string, number> = {};
  let keep: ReturnType<typeof tempDir> | undefined;
  for (let i = 0; i < runs; i++) {
    progress(`sync: round ${i + 1}/${runs}`);
    keep?.cleanup();
    keep = tempDir();
    const cwd = join(keep.dir, 'cwd'); // empty: no carte.yaml here, so the demo config is used
    const data = join(keep.dir, 'data');
    mkdirSync(cwd);
    for (const arm of ['cold', 'warm'] as const) {
      const run = await runOk(['sync', '--data-dir', data, '--json'], { cwd });
      const reports = JSON.parse(run.stdout) as Report[];
      const bad = reports.filter((r) => r.status !== 'success');
      if (bad.length) throw new Error(`sync ${arm}: ${bad.map((r) => r.server).join(', ')} failed`);
      record(arm, run);
      slowestServerMs[arm].push(Math.max(...reports.map((r) => r.durationMs)));
      toolCounts = Object.fromEntries(reports.map((r) => [r.server, r.toolCount]));
    }
    for (const [arm, mode] of [
      ['direct', 'legacy'],
      ['directAuto', 'auto'],
    ] as const) {
      const script = join(ROOT, 'bench', 'core', 'baseline-list.mjs');
      const run = await runOk([script, join(keep.dir, `direct-${mode}`), mode], { cwd, bin: false });
      const b = JSON.parse(run.stdout) as Baseline;
      record(arm, run);
      directSlowestMs[arm].push(Math.max(...Object.values(b.perServer).map((s) => s.totalMs)));
    }
    record('cliNoop', await runOk(['servers', '--data-dir', data, '--json'], { cwd }));
    record('nodeBare', await runOk(['-e', '0'], { cwd, bin: false }));
  }
  const last = keep!;
  return {
    runs,
    wallMs,
    cpuMs,
    slowestServerMs,
    directSlowestMs,
    toolCounts,
    dataDir: join(last.dir, 'data'),
    cwd: join(last.dir, 'cwd'),
    cleanup: last.cleanup,
  };
}

export function syncTable(b: SyncBench): string {
  const direct = median(b.wallMs.direct);
  const row = (what: string, arm: Arm, slowest: number[] | undefined, vs: boolean) => [
    what,
    ms(median(b.wallMs[arm])),
    ms(Math.min(...b.wallMs[arm])),
    ms(median(b.cpuMs[arm])),
    slowest ? ms(median(slowest)) : '',
    vs ? ratio(median(b.wallMs[arm]), direct) : '',
  ];
  const tools = Object.values(b.toolCounts).reduce((a, c) => a + c, 0);
  return [
    `Demo config: ${Object.keys(b.toolCounts).length} servers, ${tools} tools; median of ${b.runs} runs; wall time from spawn to exit; CPU = user + system of the whole process tree (GNU time), which waiting for a CPU does not inflate.`,
    '',
    table(
      ['what', 'wall p50 ms', 'wall min ms', 'CPU p50 ms', 'slowest server p50 ms', 'wall vs direct'],
      [
        row('`carte sync` cold (fresh data dir, era probe)', 'cold', b.slowestServerMs.cold, true),
        row('`carte sync` warm (era cached, no probe)', 'warm', b.slowestServerMs.warm, true),
        row('direct: v2 client, plain initialize, 4 in parallel', 'direct', b.directSlowestMs.direct, true),
        row('direct: v2 client, versionNegotiation auto', 'directAuto', b.directSlowestMs.directAuto, true),
        row('`carte servers` (CLI start, no upstream)', 'cliNoop', undefined, false),
        row('`node -e 0`', 'nodeBare', undefined, false),
      ],
    ),
  ].join('\n');
}
