// A one-off job in a child Node process: a module's exported function run with one string argument.
// Used for work whose memory must go back to the system when it ends (a dictionary's full parse,
// docs/search.md "Other languages"): a worker thread leaves 9..26 MiB of freed heap in the process.
import { spawn } from 'node:child_process';

/** Run `module`'s export `exportName(arg)` in a child `node`; rejects with its error line if it fails. */
export function runNodeJob(module: string, exportName: string, arg: string): Promise<void> {
  const code = `const m = await import(${JSON.stringify(module)}); await m[${JSON.stringify(exportName)}](${JSON.stringify(arg)});`;
  return new Promise((resolve, reject) => {
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

/** The line naming the error in a Node stack trace (`Error: …`), else the last line. */
function errorLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  return lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.at(-1) ?? '';
}
