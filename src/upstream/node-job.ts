// A one-off job in a child Node process: a module's exported function run with one string argument.
// Used for work whose memory must go back to the system when it ends (a dictionary's full parse,
// docs/history/search-history.md, "Tried and dropped"): a worker thread leaves 9..26 MiB of freed heap in the process.
// Built-in modules a command may never need are loaded when used (process.getBuiltinModule), not at
// start: docs/benchmarks.md, "CLI start".

/** Run `module`'s export `exportName(arg)` in a child `node`; rejects with its error line if it fails. */
export function runNodeJob(module: string, exportName: string, arg: string): Promise<void> {
  const code = jobCode(module, exportName, arg);
  return new Promise((resolve, reject) => {
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(process.execPath, ['--input-type=module', '--eval', code], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    child.once('error', reject);
    child.once('close', (status) =>
      status === 0 ? resolve() : reject(new Error(`exited with ${status}: ${errorLine(stderr)}`)),
    );
  });
}

/** `runNodeJob`, blocking this thread until the job ends: for a caller that cannot wait otherwise. */
export function runNodeJobSync(module: string, exportName: string, arg: string): void {
  const code = jobCode(module, exportName, arg);
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const child = spawnSync(process.execPath, ['--input-type=module', '--eval', code], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (child.error) throw child.error;
  if (child.status !== 0)
    throw new Error(`exited with ${child.status}: ${errorLine(child.stderr.toString())}`);
}

function jobCode(module: string, exportName: string, arg: string): string {
  const [m, e, a] = [module, exportName, arg].map((s) => JSON.stringify(s));
  return `const m = await import(${m}); await m[${e}](${a});`;
}

/** The line naming the error in a Node stack trace (`Error: …`), else the last line. */
function errorLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  return lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.at(-1) ?? '';
}
