import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { UpstreamPool, type SandboxSpec, type UpstreamTarget } from '../../../src/upstream/index.js';
import { FIXTURES } from '../helpers.js';

// Slow: how often a sandboxed server is started for a first connect (issue 42, start-up cost).
const hasBwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', 'true']).status === 0;
if (!hasBwrap) {
  if (process.env.CI) throw new Error('bwrap is missing or cannot create namespaces: install bubblewrap');
  process.stderr.write(
    '*** SKIPPED test/e2e/sandbox/sandbox-start.test.ts: bwrap is missing (apt-get install bubblewrap) ***\n',
  );
}

const logger = { debug() {}, info() {}, warn() {}, error() {} };
let root: string;
let pool: UpstreamPool;

/** Starts `fixture` (sandboxed or not) with no known era; returns its era and how often it started. */
async function firstConnect(fixture: string, id: string, sandboxed: boolean) {
  const state = join(root, id);
  mkdirSync(state, { recursive: true });
  const log = join(state, 'spawns');
  const spec: SandboxSpec = { network: [], allowWrite: [], denyRead: [], stateDir: state };
  const target: UpstreamTarget = {
    kind: 'stdio',
    command: process.execPath,
    args: [join(FIXTURES, fixture)],
    env: { SPAWN_LOG: log },
    ...(sandboxed ? { sandbox: spec } : {}),
  };
  const conn = await pool.connect(id, target, { timeoutMs: 30_000, logger });
  const tools = await conn.listTools(30_000);
  const starts = readFileSync(log, 'utf8').trim().split('\n').length;
  return { era: conn.info.protocolEra, tools: tools.length, starts };
}

describe.runIf(hasBwrap)('sandbox: start-up', () => {
  beforeAll(() => {
    root = mkdtempSync('/var/tmp/carte-sandbox-start-');
    pool = new UpstreamPool();
  });
  afterAll(async () => {
    await pool?.closeAll();
    rmSync(root, { recursive: true, force: true });
  });

  it('a sandboxed server is started once on a first connect (the era probe runs in place)', async () => {
    const r = await firstConnect('spawn-counter.mjs', 'boxed', true);
    expect(r).toMatchObject({ era: '2026-07-28', starts: 1 });
  });

  it('an unsandboxed one is started twice (the SDK probes on a sibling): the control', async () => {
    const r = await firstConnect('spawn-counter.mjs', 'plain', false);
    expect(r).toMatchObject({ era: '2026-07-28', starts: 2 });
  });

  it('a sandboxed server that exits on the probe is started again in the 2025 era', async () => {
    const r = await firstConnect('strict-legacy.mjs', 'strict', true);
    expect(r).toEqual({ era: '2025-11-25', tools: 1, starts: 2 });
    const conn = await pool.peek('strict');
    const out = await conn!.callTool('ping_back', {}, { timeoutMs: 10_000 });
    expect((out.content as { text: string }[])[0]!.text).toMatch(/^pong \d+$/);
  });
});
