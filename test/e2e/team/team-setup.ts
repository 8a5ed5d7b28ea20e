// The pieces of team.test.ts (issue 26, item 7): the built CLI as replicas and commands, HAProxy
// with the sticky-session backend of docs/operations.md, and MCP sessions calling in a loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FIXTURES, referenceEntry, ROOT } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'carte.js');
/** Debian's HAProxy (package haproxy): in /usr/sbin, which a user's PATH may lack. */
export const HAPROXY = '/usr/sbin/haproxy';
/** Every process group this module started, for `killAll`. */
const groups = new Set<number>();

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it is true; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** A port that was free a moment ago (HAProxy takes its port from its config, not from port 0). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The team's config: the reference everything server and the poisoned fixture (a quarantine). */
export function writeTeamConfig(dir: string): string {
  const path = join(dir, 'carte.yaml');
  const node = JSON.stringify(process.execPath);
  writeFileSync(
    path,
    [
      'servers:',
      '  everything:',
      `    command: ${node}`,
      `    args: [${JSON.stringify(referenceEntry('server-everything'))}, stdio]`,
      '  p:',
      `    command: ${node}`,
      `    args: [${JSON.stringify(join(FIXTURES, 'poisoned.mjs'))}]`,
      // Searches without a token need no token row: they go on while the database is away.
      'http:',
      '  anonymousProject: default',
      '',
    ].join('\n'),
  );
  return path;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One run of the built CLI with `env` over this process's environment. */
export async function carte(args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

export interface Replica {
  name: string;
  /** http://127.0.0.1:<port> */
  base: string;
  child: ChildProcess;
  stderr(): string;
  alive(): boolean;
}

/** The CARTE_SECRET_KEY the test replicas share (32 bytes in base64; no secret: a test's). */
export const TEAM_SECRET_KEY = Buffer.alloc(32, 41).toString('base64');

/** Starts `carte serve --http --port 0` in a process group of its own; resolves once it serves. */
export async function startReplica(
  name: string,
  o: { config: string; dataDir: string; databaseUrl: string },
): Promise<Replica> {
  const child = spawn(process.execPath, [BIN, 'serve', '--http', '--port', '0'], {
    env: {
      ...process.env,
      CARTE_CONFIG: o.config,
      CARTE_DATA_DIR: o.dataDir,
      CARTE_DATABASE_URL: o.databaseUrl,
      // Every replica shares the key that seals upstream sign-ins (a gateway on PostgreSQL needs it).
      CARTE_SECRET_KEY: TEAM_SECRET_KEY,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its upstreams join its group, so killAll finds them
  });
  groups.add(child.pid!);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const endpoint = () => /MCP endpoint \(Streamable HTTP, both protocol eras\): (\S+)\/mcp/.exec(stderr);
  await waitFor(`replica ${name} to serve (stderr: ${stderr.slice(-300)})`, () => {
    if (!alive()) throw new Error(`replica ${name} exited ${child.exitCode}: ${stderr.slice(-500)}`);
    return endpoint() !== null;
  });
  return { name, base: endpoint()![1]!, child, stderr: () => stderr, alive };
}

/**
 * HAProxy in the foreground on `port`, with the backend of docs/operations.md ("Behind a load
 * balancer") as printed there, its three `server` lines pointed at the replicas.
 */
export async function startHaproxy(
  dir: string,
  port: number,
  replicas: Replica[],
): Promise<{ child: ChildProcess; stderr: () => string }> {
  const docs = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const block = /With HAProxy:\n\n```\n([\s\S]*?)```/.exec(docs)?.[1];
  if (block === undefined) throw new Error('docs/operations.md has no HAProxy block after "With HAProxy:"');
  let n = 0;
  const backend = block.replace(/^(\s*server \S+ )\S+( check)$/gm, (_, head: string, tail: string) => {
    const replica = replicas[n++];
    if (!replica) throw new Error('docs/operations.md names more servers than the test runs');
    return `${head}${new URL(replica.base).host}${tail}`;
  });
  if (n !== replicas.length) throw new Error(`docs/operations.md names ${n} servers, not ${replicas.length}`);
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    [
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 10m',
      '  timeout server 10m',
      // Checks four times a second: a dead or drained replica leaves the rotation within a second.
      // A check may take 5 s (without it, `inter` bounds it: a slow /readyz on a loaded machine
      // would drain a healthy replica, and its sessions would move and answer 404).
      '  timeout check 5s',
      '  default-server inter 250 fall 2 rise 2',
      'frontend team',
      `  bind 127.0.0.1:${port}`,
      '  default_backend carte',
      backend,
    ].join('\n'),
  );
  const child = spawn(HAPROXY, ['-f', cfg, '-db'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  // A spawn that fails (ENOENT) says so through the wait below, not as an uncaught 'error' event.
  child.on('error', (err) => (stderr += `${err.message}\n`));
  if (child.pid !== undefined) groups.add(child.pid);
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  // Ready when every replica answers /readyz through it (round robin: one probe per replica).
  await waitFor(`HAProxy on port ${port} (stderr: ${stderr.slice(-300)})`, async () => {
    if (child.exitCode !== null || child.pid === undefined)
      throw new Error(`haproxy exited ${child.exitCode}: ${stderr}`);
    const codes = await Promise.all(
      replicas.map(() =>
        get(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    return codes.every((c) => c === 200);
  });
  return { child, stderr: () => stderr };
}

/** SIGKILLs every process group started here (replicas with their upstreams, HAProxy). */
export function killAll(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  groups.clear();
}

/** A GET or POST that never hangs the test: aborted after 20 s. */
export function get(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
}

/** A call whose result reached its client. */
export interface Ack {
  message: string;
  startedAt: number;
  at: number;
}

export interface Failure {
  worker: number;
  at: number;
  /** `http <status>`, `tool_error <carte error code>`, or the error's name and message. */
  kind: string;
}

type ToolResult = {
  content?: { type: string; text?: string }[];
  isError?: boolean;
  _meta?: Record<string, { code?: string } | undefined>;
};

/**
 * `count` legacy-era (2025, session) MCP clients calling everything's echo through `url` in a
 * loop, each message unique. A client whose session is not known where its request landed (404)
 * starts a new one, as the protocol says; other failures and tool errors keep the session.
 */
export class CallLoad {
  readonly acks: Ack[] = [];
  readonly failures: Failure[] = [];
  private running = true;
  private readonly workers: Promise<void>[];
  private readonly acksBy: Ack[][];

  constructor(private readonly o: { url: string; token: string; count: number; tag: string }) {
    this.acksBy = Array.from({ length: o.count }, () => []);
    this.workers = this.acksBy.map((_, i) => this.work(i));
  }

  /** Whether every client has had at least `n` results since `at`. */
  everyClientAnswered(n: number, at: number): boolean {
    return this.acksBy.every((acks) => acks.filter((a) => a.startedAt >= at).length >= n);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  private async work(worker: number): Promise<void> {
    let client: Client | undefined;
    let n = 0;
    while (this.running) {
      const message = `${this.o.tag} w${worker} #${n++}`;
      const startedAt = Date.now();
      try {
        client ??= await this.connect().catch((err: unknown) => {
          throw new Error(`connect: ${failureKind(err)}`);
        });
        const r = (await client.callTool(
          { name: 'call_tool', arguments: { key: 'everything/echo', arguments: { message } } },
          { timeout: 20_000 },
        )) as ToolResult;
        if (r.isError === true) {
          const code = r._meta?.['carte/error']?.code ?? r.content?.[0]?.text;
          this.failures.push({ worker, at: Date.now(), kind: `tool_error ${code}` });
          await sleep(100);
          continue;
        }
        if (r.content?.[0]?.text !== `Echo: ${message}`)
          throw new Error(`echo answered ${JSON.stringify(r.content)} to ${JSON.stringify(message)}`);
        const ack = { message, startedAt, at: Date.now() };
        this.acks.push(ack);
        this.acksBy[worker]!.push(ack);
      } catch (err) {
        const kind = failureKind(err);
        this.failures.push({ worker, at: Date.now(), kind });
        // A broken connection or a 503 keeps the session, as a real client's does; a 404 (the
        // session is not known where it landed) or a failed start begins a new one.
        if (kind === 'http 404' || kind.startsWith('connect: ')) {
          const closing = client;
          client = undefined;
          await closing?.close().catch(() => undefined);
        }
        await sleep(200);
      }
    }
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<Client> {
    const client = new Client({ name: `team-${this.o.tag}`, version: '0' });
    client.onerror = () => undefined; // the session's GET stream breaking when its replica dies
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${this.o.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${this.o.token}` } },
        reconnectionOptions: {
          initialReconnectionDelay: 200,
          maxReconnectionDelay: 1_000,
          reconnectionDelayGrowFactor: 2,
          maxRetries: 0,
        },
      }),
    );
    return client;
  }
}

function failureKind(err: unknown): string {
  if (err instanceof SdkHttpError) return `http ${err.data?.status}`;
  if (err instanceof Error && err.message.startsWith('connect: ')) return err.message;
  if (err instanceof Error) return `${err.name}: ${err.message.slice(0, 120)}`;
  return String(err);
}
