// The servers of part `peers` (peers.ts): Carte's HTTP face, two other stdio-to-HTTP MCP gateways
// from npm (mcp-proxy, supergateway, pinned devDependencies) and the bare `floor` proxy, each in
// front of everything over stdio on a free port, and each stopped with everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ROOT, cleanEnv, referenceEntry } from '../core/paths.js';
import { CONFIGS, setupCarte } from './configs.js';
import { startCarteHttp } from './http-face.js';
import { startFloor } from './http-floor.js';
import { freePort } from './http-upstream.js';
import { commandLine, descendantsOf } from './proc-info.js';

export const PEER_ARMS = ['carte', 'mcp-proxy', 'supergateway', 'floor'] as const;
export type PeerArmName = (typeof PEER_ARMS)[number];
export type Era = 'modern' | 'legacy';

export interface PeerServer {
  arm: PeerArmName;
  /** The Streamable HTTP endpoint. */
  url: string;
  /** The gateway process: its CPU is the arm's; everything runs below it. */
  pid: number;
  /** Carte's bearer token (call scope); the peers run without auth, as they do by default. */
  token?: string;
  /**
   * The eras it serves everything in, best first; empty for the floor, which answers a bare
   * `tools/call` POST whatever its headers say.
   */
  eras: readonly Era[];
  /** How it was started, for the report. */
  command: string;
  stop(): Promise<void>;
}

const EVERYTHING = referenceEntry('server-everything');
/** A wait for the gateway to exit after SIGTERM before SIGKILL, ms. */
const STOP_GRACE_MS = 10_000;

/** Starts one arm's server; on failure nothing it started is left running. */
export function startPeer(arm: PeerArmName, dir: string): Promise<PeerServer> {
  switch (arm) {
    case 'carte':
      return startCarte(dir);
    case 'mcp-proxy':
      return startMcpProxy();
    case 'supergateway':
      return startSupergateway();
    case 'floor':
      return startFloorArm();
  }
}

async function startCarte(dir: string): Promise<PeerServer> {
  const carte = await startCarteHttp(await setupCarte(dir, 'peers', CONFIGS.stdio()), dir);
  return {
    arm: 'carte',
    url: carte.url,
    pid: carte.pid,
    token: carte.token,
    eras: ['modern', 'legacy'],
    command: 'carte serve --http --port 0 (config: everything over stdio; a token with the call scope)',
    stop: async () => {
      const below = descendantsOf(carte.pid);
      await carte.stop();
      await reap(below);
    },
  };
}

async function startMcpProxy(): Promise<PeerServer> {
  const port = await freePort();
  const flags = ['--host', '127.0.0.1', '--port', String(port), '--server', 'stream'];
  const child = await spawnListening(
    'mcp-proxy',
    [binOf('mcp-proxy'), ...flags, '--', process.execPath, EVERYTHING, 'stdio'],
    port,
  );
  return {
    arm: 'mcp-proxy',
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid!,
    // One upstream session shared by every caller; 2026-07-28 requests are translated onto it.
    eras: ['modern', 'legacy'],
    command: `mcp-proxy ${flags.join(' ')} -- node everything stdio`,
    stop: () => stopTree(child),
  };
}

async function startSupergateway(): Promise<PeerServer> {
  const port = await freePort();
  const stdio = `${process.execPath} ${EVERYTHING} stdio`;
  const flags = ['--outputTransport', 'streamableHttp', '--stateful', '--port', String(port)];
  const child = await spawnListening(
    'supergateway',
    [binOf('supergateway'), '--stdio', stdio, ...flags],
    port,
  );
  return {
    arm: 'supergateway',
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid!,
    // It hands a 2026-07-28 request unchanged to a fresh child per request, and everything over
    // stdio speaks only the 2025 era (server/discover: "Method not found"), so a 2026 client
    // falls back to a session: one `sh -c` and one everything per session.
    eras: ['legacy'],
    command: `supergateway --stdio "node everything stdio" ${flags.join(' ')}`,
    stop: () => stopTree(child),
  };
}

async function startFloorArm(): Promise<PeerServer> {
  const { child, url } = await startFloor('proxy');
  return {
    arm: 'floor',
    url,
    pid: child.pid!,
    eras: [],
    command: 'node bench/load/http-floor-server.mjs proxy everything',
    stop: () => stopTree(child),
  };
}

/** A package's bin script, read from its package.json, so the pinned devDependency is what runs. */
function binOf(pkg: string): string {
  const dir = join(ROOT, 'node_modules', pkg);
  let bin: string | Record<string, string> | undefined;
  try {
    bin = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin?: typeof bin }).bin;
  } catch {
    throw new Error(`${pkg} is not installed in ${dir}: run \`npm ci\``);
  }
  const path = typeof bin === 'string' ? bin : bin?.[pkg];
  if (path === undefined) throw new Error(`${pkg}'s package.json names no bin "${pkg}"`);
  return join(dir, path);
}

/** `node <args>`, its output drained (supergateway logs every message), once `port` accepts. */
async function spawnListening(name: string, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (c: Buffer) => (tail = (tail + c.toString()).slice(-2000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  try {
    await waitForPort(port, child, 20_000);
    return child;
  } catch (err) {
    await stopTree(child);
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`${name} did not listen on port ${port}: ${why}; its output ends: ${tail.slice(-800)}`, {
      cause: err,
    });
  }
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`it exited with ${child.exitCode ?? child.signalCode}`);
    if (await accepts(port)) return;
    if (Date.now() > deadline) throw new Error(`nothing accepted within ${timeoutMs} ms`);
    await sleep(100);
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM to the gateway (SIGKILL after a grace), then to whatever it had started and left
 * behind: supergateway puts each everything in a process group of its own.
 */
async function stopTree(child: ChildProcess): Promise<void> {
  const below = child.pid === undefined ? [] : descendantsOf(child.pid);
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
  await reap(below);
}

/** Ends the processes of a snapshot still running the same command (a reused pid is left alone). */
async function reap(procs: readonly { pid: number; cmd: string }[]): Promise<void> {
  let left = procs.filter((p) => commandLine(p.pid) === p.cmd);
  const signal = (name: NodeJS.Signals) =>
    left.forEach((p) => {
      try {
        process.kill(p.pid, name);
      } catch {
        // Gone between the check and the signal.
      }
    });
  signal('SIGTERM');
  const deadline = Date.now() + 5000;
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(50);
    left = left.filter((p) => commandLine(p.pid) === p.cmd);
  }
  signal('SIGKILL');
}
