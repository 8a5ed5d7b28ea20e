// The crash loop: run `carte sync` over and over against a fixture whose catalog flips between
// version A and B, SIGKILL it at seeded random moments, and check the store after every run.
import { writeFileSync } from 'node:fs';
import { runSearch, runSync, type KillPlan, type Paths } from './carte-runs.js';
import { readState, type Classified, type StoreState, type Version } from './catalog-state.js';

export interface LoopOptions {
  /** SIGKILLs to land (runs that finish on their own do not count). */
  kills: number;
  seed: number;
  paths: Paths;
  dbPath: string;
  serverId: string;
  versionFile: string;
  logFile: string;
}

export interface LoopReport {
  runs: number;
  kills: number;
  /** Runs by plan and effect, e.g. `listed:killed:changed` (the kill came after the commit). */
  outcomes: Record<string, number>;
  /** Runs after which an upstream outlived carte by 5 s (then SIGKILLed). */
  leftovers: number;
}

/** A small seeded PRNG (mulberry32): the same seed replays the same kills. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickPlan(random: () => number, logFile: string): KillPlan {
  const r = random();
  // During start-up: config, store open and migration, reconcile, upstream spawn.
  if (r < 0.3) return { at: 'spawn', delayMs: Math.floor(random() * 400) };
  // Anywhere in a run, including after it finished (then the run counts as completed).
  if (r < 0.6) return { at: 'spawn', delayMs: Math.floor(random() * 2_500) };
  // Right around the catalog transaction: just after the last page reached carte.
  return { at: 'listed', delayMs: Math.floor(random() * 40), logFile };
}

/** Runs the loop; throws on the first broken invariant, naming the seed and the run. */
export async function killLoop(o: LoopOptions): Promise<LoopReport> {
  const random = seededRandom(o.seed);
  const report: LoopReport = { runs: 0, kills: 0, outcomes: {}, leftovers: 0 };
  let version: Version = 'A';
  let before = (await readState(o.dbPath, o.serverId)).catalog;
  while (report.kills < o.kills && report.runs < o.kills * 4) {
    if (random() < 0.7) version = version === 'A' ? 'B' : 'A';
    writeFileSync(o.versionFile, version);
    const plan = pickPlan(random, o.logFile);
    const run = await runSync(o.paths, plan);
    report.runs++;
    if (run.killed) report.kills++;
    if (run.leftovers) report.leftovers++;
    const state = await readState(o.dbPath, o.serverId);
    const where = `seed ${o.seed}, run ${report.runs} (${JSON.stringify(plan)}, version ${version}, killed ${run.killed})`;
    checkState(state, { before, offered: version, completed: run.killed ? undefined : run }, where);
    const effect = state.catalog === before ? 'kept' : 'changed';
    const key = `${plan.at}:${run.killed ? 'killed' : 'done'}:${effect}`;
    report.outcomes[key] = (report.outcomes[key] ?? 0) + 1;
    before = state.catalog;
  }
  return report;
}

interface Expectation {
  before: Classified;
  offered: Version;
  /** Set when the run exited on its own: it must have succeeded and stored what it was offered. */
  completed?: { code: number | null; stderr: string };
}

/** The invariants after any run, killed or not. */
export function checkState(s: StoreState, e: Expectation, where: string): void {
  const fail = (what: string) => {
    throw new Error(`${where}: ${what}; store: ${JSON.stringify({ ...s, tools: s.tools.length })}`);
  };
  if (s.integrity !== 'ok') fail(`integrity_check says ${s.integrity}`);
  if (s.catalog === 'mixed') fail(`the stored tools mix versions: ${s.tools.map((t) => t.name).join(', ')}`);
  if ((s.toolCount ?? 0) !== s.tools.length)
    fail(`tool_count ${s.toolCount} but ${s.tools.length} tools stored`);
  if (s.catalog !== e.before && s.catalog !== e.offered) {
    fail(`the catalog went from ${e.before} to ${s.catalog}, but the run was offered ${e.offered}`);
  }
  if (e.completed) {
    if (e.completed.code !== 0)
      fail(`the sync exited ${e.completed.code}: ${e.completed.stderr.slice(-500)}`);
    if (s.catalog !== e.offered || s.status !== 'success')
      fail(`a finished sync left ${s.catalog} (${s.status})`);
  }
}

/** Searches in a loop until `stop()` says so; returns every failure it saw (exit, JSON, mix). */
export async function readerLoop(
  paths: Paths,
  stop: () => boolean,
): Promise<{ runs: number; failures: string[] }> {
  const failures: string[] = [];
  let runs = 0;
  while (!stop()) {
    const r = await runSearch(paths, ['shared', 'tool', 'catalog', 'entry', '--limit', '50']);
    runs++;
    const problem = searchProblem(r.code, r.stdout);
    if (problem) failures.push(`search ${runs}: ${problem}; stderr: ${r.stderr.slice(-500)}`);
  }
  return { runs, failures };
}

function searchProblem(code: number | null, stdout: string): string | undefined {
  if (code !== 0) return `exit code ${code}`;
  let results: Array<{ name: string; summary: string }>;
  try {
    results = (JSON.parse(stdout) as { results: typeof results }).results;
  } catch {
    return `stdout is not JSON: ${stdout.slice(0, 200)}`;
  }
  // One search reads one snapshot: every hit comes from the same version.
  const versions = new Set(results.map((h) => /^Version ([AB]) /.exec(h.summary)?.[1] ?? '?'));
  if (versions.has('?') || versions.size > 1) return `hits from ${[...versions].join(' and ')}`;
  const [v] = [...versions];
  const foreign = results.filter((h) => h.name.startsWith(v === 'A' ? 'beta_' : 'alpha_'));
  if (foreign.length) return `version ${v} hits include ${foreign.map((h) => h.name).join(', ')}`;
  return undefined;
}
