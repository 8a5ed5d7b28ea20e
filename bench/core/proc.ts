// Running the built CLI as a child process and timing it from spawn to exit.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BIN, cleanEnv } from './paths.js';

export interface CliRun {
  ms: number;
  /** User + system CPU of the child, when GNU time is installed: unlike wall time, waiting for a CPU does not count. */
  cpuMs?: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** GNU time reports a child's CPU time; Node has no API for it. */
const TIME = '/usr/bin/time';
const TIME_TAG = 'carte-bench-cpu';
const hasTime = existsSync(TIME);

/** Runs `node bin/carte.js ...args` (or `node ...args` with `bin: false`; `node` another binary) and measures its wall time. */
export function runNode(
  args: readonly string[],
  opts: { cwd: string; env?: Record<string, string>; bin?: boolean; timeoutMs?: number; node?: string },
): Promise<CliRun> {
  const argv = [opts.node ?? process.execPath, ...(opts.bin === false ? [] : [BIN]), ...args];
  const [command, ...rest] = hasTime ? [TIME, '-f', `${TIME_TAG} %U %S`, ...argv] : argv;
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command!, rest, { cwd: opts.cwd, env: cleanEnv(opts.env), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - start;
      const tagged = new RegExp(`${TIME_TAG} ([\\d.]+) ([\\d.]+)\\s*$`).exec(stderr);
      if (!tagged) return resolve({ ms, code, stdout, stderr });
      const cpuMs = (Number(tagged[1]) + Number(tagged[2])) * 1000;
      resolve({ ms, cpuMs, code, stdout, stderr: stderr.slice(0, tagged.index) });
    });
  });
}

/** Like `runNode`, but a non-zero exit is an error that shows the child's stderr. */
export async function runOk(...params: Parameters<typeof runNode>): Promise<CliRun> {
  const run = await runNode(...params);
  if (run.code !== 0) {
    throw new Error(`node ${params[0].join(' ')} exited with ${run.code}: ${run.stderr.trim().slice(-800)}`);
  }
  return run;
}
