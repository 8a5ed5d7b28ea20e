// A short program run to its end for the CLI: `carte service install --start` runs systemctl or
// launchctl. Spawning belongs here (STYLE.md); the CLI says what to run and reports the outcome.
// Built-in modules a command may never need are loaded when used (process.getBuiltinModule), not at
// start: docs/benchmarks.md, "CLI start".

/** How long a service manager command may take before it counts as failed, ms. */
const PROGRAM_TIMEOUT_MS = 60_000;

/** How a program ran: `ok` when it exited 0; `detail` is its output, or why it failed (`exit 1: Failed to connect to bus`). */
export interface ProgramOutcome {
  ok: boolean;
  detail: string;
}

/** Runs `argv` (no shell) and waits for it: its exit and output, or why it could not start. */
export function runProgram(argv: readonly string[]): ProgramOutcome {
  const [command, ...args] = argv;
  if (command === undefined) return { ok: false, detail: 'no command' };
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const run = spawnSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: PROGRAM_TIMEOUT_MS,
  });
  // One line for a message: systemctl says what it did, then why it failed.
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().replace(/\s*\n\s*/g, '; ');
  if (run.error) return { ok: false, detail: run.error.message };
  if (run.status !== 0)
    return {
      ok: false,
      detail: `${run.signal ? `killed by ${run.signal}` : `exit ${run.status}`}${output ? `: ${output}` : ''}`,
    };
  return { ok: true, detail: output };
}
