// Baseline for `carte sync`: spawn, initialize and list the four demo reference servers directly
// with the v2 client, in parallel (as Carte does), then close them. Prints JSON timings to stdout.
// Usage: node bench/core/baseline-list.mjs <dataDir> [legacy|auto]
//   legacy: a plain client (initialize handshake); auto: versionNegotiation auto, as Carte's first sync.
import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

// performance.now() counts from process start: this is node start-up plus the SDK import.
const bootMs = performance.now();
const require = createRequire(import.meta.url);
const entry = (pkg) =>
  join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js');
const [dataDir, mode = 'legacy'] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: baseline-list.mjs <dataDir> [legacy|auto]');
mkdirSync(join(dataDir, 'sandbox'), { recursive: true });

const servers = {
  everything: { args: [entry('server-everything'), 'stdio'] },
  filesystem: { args: [entry('server-filesystem'), join(dataDir, 'sandbox')] },
  memory: { args: [entry('server-memory')], env: { MEMORY_FILE_PATH: join(dataDir, 'memory.jsonl') } },
  'sequential-thinking': { args: [entry('server-sequential-thinking')] },
};

async function listOne(id, { args, env = {} }) {
  const t0 = performance.now();
  const options = mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {};
  const client = new Client({ name: 'carte-bench-baseline', version: '0' }, options);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  const connected = performance.now();
  const { tools } = await client.listTools();
  const listed = performance.now();
  return {
    id,
    client,
    tools: tools.length,
    connectMs: connected - t0,
    listMs: listed - connected,
    totalMs: listed - t0,
  };
}

const t0 = performance.now();
const results = await Promise.all(Object.entries(servers).map(([id, s]) => listOne(id, s)));
const allListedMs = performance.now() - t0;
await Promise.all(results.map((r) => r.client.close()));
const closedMs = performance.now() - t0;
const perServer = Object.fromEntries(results.map(({ id, client: _c, ...rest }) => [id, rest]));
process.stdout.write(`${JSON.stringify({ mode, bootMs, allListedMs, closedMs, perServer })}\n`);
process.exit(0);
