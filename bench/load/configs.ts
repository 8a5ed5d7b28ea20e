// Carte config files for the load bench, each synced once before any session opens (so every
// `carte serve` starts with a stored catalog and no start-up sync).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, referenceEntry } from '../core/paths.js';
import { runOk } from '../core/proc.js';

export interface CarteSetup {
  config: string;
  dataDir: string;
  /** Extra environment for every command on this setup (`CARTE_DATABASE_URL` for PostgreSQL). */
  env?: Record<string, string>;
}

const q = (s: string) => JSON.stringify(s);

const everythingStdio = [
  '  everything:',
  `    command: ${q(process.execPath)}`,
  `    args: [${q(referenceEntry('server-everything'))}, stdio]`,
];

export const CONFIGS = {
  stdio: () => ['servers:', ...everythingStdio],
  http: (url: string) => [
    'servers:',
    '  everything:',
    `    url: ${q(url)}`,
    '    transport: streamable-http',
  ],
  faults: () => [
    'servers:',
    ...everythingStdio,
    '  faults:',
    `    command: ${q(process.execPath)}`,
    `    args: [${q(join(FIXTURES, 'faults.mjs'))}]`,
    // Its own server, so the crashes above (and the circuit breaker they open) do not touch it.
    '  hangs:',
    `    command: ${q(process.execPath)}`,
    `    args: [${q(join(FIXTURES, 'faults.mjs'))}]`,
    `    timeoutMs: ${HANG_TIMEOUT_MS}`,
  ],
};

/** The per-call timeout of the fault run's `hangs` server (its `hang` tool never answers). */
export const HANG_TIMEOUT_MS = 1000;

/**
 * Writes `<dir>/<name>.yaml`, syncs it into `<dir>/<name>-data` (or the database `env` names with
 * `CARTE_DATABASE_URL`), and fails if a server did not sync.
 */
export async function setupCarte(
  dir: string,
  name: string,
  lines: string[],
  env?: Record<string, string>,
): Promise<CarteSetup> {
  mkdirSync(dir, { recursive: true });
  const config = join(dir, `${name}.yaml`);
  const dataDir = join(dir, `${name}-data`);
  writeFileSync(config, `${lines.join('\n')}\n`);
  await runOk(['sync', '--config', config, '--data-dir', dataDir, '--json'], {
    cwd: dir,
    ...(env && { env }),
  });
  return { config, dataDir, ...(env && { env }) };
}
