// Several processes opening the same new store file at the same instant, through the store's
// public openStore (run from source with tsx). A barrier on stdin lines them up: each child says
// `ready`, then all get one start time and open store r at start + r * 150 ms, for each round r.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../e2e/helpers.js';

const CHILD = `
import { join } from 'node:path';
import { createInterface } from 'node:readline';
const { openStore } = await import(process.env.STORE_MODULE);
const [dir, rounds] = [process.argv[1], Number(process.argv[2])];
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\\n');
const start = Number(await new Promise((resolve) => lines.once('line', resolve)));
lines.close();
for (let r = 0; r < rounds; r++) {
  while (Date.now() < start + r * 150) {} // spin: a timer would blur the instant
  try {
    await (await openStore(join(dir, 'r' + r, 'carte.db'))).close();
  } catch (err) {
    process.stdout.write(JSON.stringify({ round: r, message: err.message }) + '\\n');
  }
}
`;

/** Returns one line per failed open: `round <r>: <message>`. */
export async function raceFreshOpens(o: {
  dir: string;
  processes: number;
  rounds: number;
}): Promise<string[]> {
  const env = { ...process.env, STORE_MODULE: pathToFileURL(join(ROOT, 'src', 'store', 'index.ts')).href };
  const children: ChildProcessWithoutNullStreams[] = [];
  const exits: Promise<unknown>[] = [];
  const outputs: string[] = [];
  try {
    for (let i = 0; i < o.processes; i++) {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', CHILD, o.dir, String(o.rounds)],
        { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] },
      );
      outputs.push('');
      child.stdout.on('data', (c: Buffer) => (outputs[i] += c.toString()));
      children.push(child);
      exits.push(once(child, 'exit'));
    }
    const deadline = Date.now() + 30_000;
    while (!outputs.every((out) => out.startsWith('ready\n'))) {
      if (Date.now() > deadline) throw new Error('the store-opening children did not start');
      await new Promise((r) => setTimeout(r, 20));
    }
    const start = Date.now() + 200;
    for (const child of children) child.stdin.end(`${start}\n`);
    await Promise.all(exits);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
  return outputs.flatMap((out) =>
    out
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => {
        const { round, message } = JSON.parse(line) as { round: number; message: string };
        return `round ${round}: ${message}`;
      }),
  );
}
