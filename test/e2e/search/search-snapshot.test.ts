import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDiscovery } from '../../../src/catalog/index.js';
import { loadConfigFile } from '../../../src/config/index.js';
import { Gateway, openStore, serversFromConfig } from '../../../src/gateway/index.js';
import { SNAPSHOT_MIN_TOOLS } from '../../../src/gateway/find/index-snapshot.js';
import { memoryLogger, ROOT, tempDir } from '../helpers.js';

// The index snapshot through the real CLI: a catalog big enough to get one, searched by three
// `carte search` processes (build and store, read back, rebuild over a damaged snapshot).
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
const config = join(tmp.dir, 'carte.json');
const dataDir = join(tmp.dir, 'data');
const WORDS = [
  'send',
  'email',
  'read',
  'file',
  'weather',
  'forecast',
  'issue',
  'repository',
  'calendar',
  'event',
];

beforeAll(async () => {
  const servers = ['alpha', 'beta', 'gamma'];
  // The command is never started: a search reads the stored catalog only.
  const entries = servers.map((id) => [id, { command: 'carte-test-never-started' }]);
  writeFileSync(config, JSON.stringify({ servers: Object.fromEntries(entries) }));
  const loaded = loadConfigFile(config, { env: {}, dataDir });
  const store = await openStore(join(dataDir, 'carte.db'));
  // Records each server's config hash, as the CLI will, so it keeps the tools written below.
  const gateway = await Gateway.open({
    servers: serversFromConfig(loaded.config!),
    store,
    logger: memoryLogger(),
  });
  await gateway.close();
  const perServer = Math.ceil(SNAPSHOT_MIN_TOOLS / servers.length) + 10;
  for (const [s, id] of servers.entries()) {
    const tools = Array.from({ length: perServer }, (_, i) => ({
      name: `${WORDS[(i + s) % WORDS.length]}_${WORDS[(i * 7 + s) % WORDS.length]}_${i}`,
      description: `Tool ${i} of ${id}: ${WORDS[(i * 3) % WORDS.length]} ${WORDS[(i * 5 + 1) % WORDS.length]}.`,
      inputSchema: { type: 'object', properties: { [WORDS[i % WORDS.length]!]: { type: 'string' } } },
    }));
    await applyDiscovery(store, id, { tools, protocolEra: 'legacy', serverName: id });
  }
  await store.close();
});
afterAll(() => tmp.cleanup());

function search(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        BIN,
        'search',
        'send an email',
        '--json',
        '--config',
        config,
        '--data-dir',
        dataDir,
        '--log-level',
        'debug',
      ],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('carte search with an index snapshot', () => {
  it('stores the snapshot, answers the same from it, and rebuilds over a damaged one', async () => {
    const first = await search();
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/search index: \d+ tools, built, snapshot stored in \d+ ms/);
    const results = (JSON.parse(first.stdout) as { results: { key: string }[] }).results;
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.key).toMatch(/send|email/);

    const second = await search();
    expect(second.stderr).toMatch(/search index: \d+ tools, read from its snapshot in \d+ ms/);
    expect(second.stdout).toBe(first.stdout);

    const store = await openStore(join(dataDir, 'carte.db'));
    const [key] = await store.snapshots.keys();
    await store.snapshots.put(key!, Buffer.from('damaged'));
    await store.close();
    const third = await search();
    expect(third.code).toBe(0);
    expect(third.stderr).toContain(
      'search snapshot not used, rebuilding the index: search snapshot is damaged',
    );
    expect(third.stderr).toMatch(/built, snapshot stored/);
    expect(third.stdout).toBe(first.stdout);
  });
});
