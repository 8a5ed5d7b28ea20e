// What every benchmark prints and writes: the machine, markdown tables, a JSON file in bench/out.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths.js';

/** The machine the numbers come from; shared machines are noisy, so the load is recorded too. */
export function machine(): Record<string, string | number> {
  const list = cpus();
  return {
    date: new Date().toISOString(),
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    memTotalGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    memFreeGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    loadAvg1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    commit: gitState(),
  };
}

/** The commit measured, and whether the work tree had uncommitted changes (read-only git calls). */
function gitState(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain').split('\n').filter(Boolean).length;
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ` + ${dirty} uncommitted files` : ''}`;
  } catch {
    return 'unknown';
  }
}

export function machineLine(m: Record<string, string | number>): string {
  return `machine: ${m.cpus} cpus (${m.cpuModel}), node ${m.node}, ${m.platform}, ${m.memTotalGiB} GiB, load ${m.loadAvg1m} (1 min), ${m.date}; code: ${m.commit}`;
}

/** A markdown table from a header row and body rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Writes `bench/out/<name>.json` and returns its path. */
export function writeJson(name: string, value: unknown): string {
  const dir = join(ROOT, 'bench', 'out');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.json`);
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  return path;
}

/** Progress goes to stderr so stdout holds only the report. */
export function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}
