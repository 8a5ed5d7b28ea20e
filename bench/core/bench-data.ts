// The shared evaluation data (../shared/bench, never copied into the repo): the big catalog and
// realistic query texts.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT, flag } from './paths.js';

/** A catalog entry in the shared bench format (see ../shared/bench/README.md). */
export interface BenchTool {
  server: string;
  name: string;
  description?: string | null;
  inputSchema?: Record<string, unknown> | null;
  server_description?: string;
}

interface BenchTask {
  id: string;
  query: string;
  steps?: string[];
}

/** One timed search: a whole task text, one step of it, or all its steps as one array query. */
export interface BenchQuery {
  kind: 'task' | 'step' | 'steps[]';
  query: string | string[];
}

export const BIG_CATALOG_FILES = ['catalog-livemcpbench.json', 'catalog-smithery-toolgym-distractors.json'];
const QUERY_FILE = 'queries-livemcpbench-dev.json';
/** As the bench README advises: one task embeds a base64 image. */
const MAX_QUERY_CHARS = 1000;

/** The shared bench dir (`--data DIR`, default ../shared/bench), or a clear error. */
export function benchDataDir(): string {
  const dir = resolve(ROOT, flag('data') ?? '../shared/bench');
  if (!existsSync(join(dir, QUERY_FILE))) {
    throw new Error(`bench data not found in ${dir}: pass --data DIR (see ../shared/bench/README.md)`);
  }
  return dir;
}

function loadJson<T>(dir: string, file: string): T {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
}

/** The big catalog (LiveMCPBench + Smithery distractors): about 7,000 tools on about 500 servers. */
export function loadBigCatalog(dir: string): BenchTool[] {
  return BIG_CATALOG_FILES.flatMap((f) => loadJson<BenchTool[]>(dir, f));
}

/**
 * `count` queries in a fixed order: for each task, its whole text, then each annotated step,
 * then all its steps as one array (how an agent searches once per step, or all at once).
 */
export function loadQueries(dir: string, count: number): BenchQuery[] {
  const tasks = loadJson<BenchTask[]>(dir, QUERY_FILE);
  const cut = (q: string) => q.slice(0, MAX_QUERY_CHARS);
  const all: BenchQuery[] = tasks.flatMap((t) => [
    { kind: 'task' as const, query: cut(t.query) },
    ...(t.steps ?? []).map((s) => ({ kind: 'step' as const, query: cut(s) })),
    ...(t.steps?.length ? [{ kind: 'steps[]' as const, query: t.steps.map(cut) }] : []),
  ]);
  return Array.from({ length: count }, (_, i) => all[i % all.length]!);
}
