// A real `carte serve` process driven over raw stdin bytes. It runs in its own process group,
// so cleanup reaches the upstream servers it started too, whatever state the test ended in.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ROOT } from '../e2e/helpers.js';
import type { Cleanup } from '../fixtures/harness.js';

const BIN = join(ROOT, 'bin', 'carte.js');

/** One parsed stdout line, or the raw text of a line that is not JSON. */
export type OutLine = { json: true; value: unknown } | { json: false; text: string };

export class ServeProcess {
  private stdout = '';
  private stderrText = '';
  private readonly parsed: OutLine[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.take(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrText = (this.stderrText + chunk.toString()).slice(-20_000);
    });
    child.stdin.on('error', () => undefined); // EPIPE once the process is gone
    this.exited = once(child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as NodeJS.Signals | null,
    }));
  }

  /** Starts `carte serve --config <config> --data-dir <dataDir>` and completes a legacy handshake. */
  static async start(cleanup: Cleanup, config: string, dataDir: string): Promise<ServeProcess> {
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--data-dir', dataDir], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // its own process group: killGroup() also ends the upstreams it spawned
    });
    const serve = new ServeProcess(child);
    cleanup.add(() => serve.stop());
    const init = {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } },
    };
    await serve.call(init, 30_000);
    await serve.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    return serve;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  stderr(): string {
    return this.stderrText;
  }

  /** Every complete stdout line so far. */
  lines(): readonly OutLine[] {
    return this.parsed;
  }

  /** Writes bytes to stdin, waiting for the pipe to drain (megabyte lines). */
  async write(bytes: string | Uint8Array): Promise<void> {
    if (!this.alive) throw new Error(`carte serve already exited; stderr:\n${this.stderrText}`);
    if (!this.child.stdin.write(bytes)) await once(this.child.stdin, 'drain');
  }

  /** Sends one request (its `id` must be unique) and waits for the response with that id. */
  async call(request: { id: string }, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    if (!this.alive) throw new Error(`carte serve already exited; stderr:\n${this.stderrText}`);
    this.push(`${JSON.stringify(request)}\n`); // not awaiting drain: the timeout below still applies
    return this.waitForId(request.id, timeoutMs);
  }

  async waitForId(id: string, timeoutMs: number): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.parsed.find(
        (l) => l.json && isRecord(l.value) && l.value.id === id && !('method' in l.value),
      );
      if (hit?.json) return hit.value as Record<string, unknown>;
      if (!this.alive)
        throw new Error(`carte serve exited before answering ${id}; stderr:\n${this.stderrText}`);
      if (Date.now() > deadline) throw new Error(`carte serve did not answer ${id} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Resolves true if the process exits within `ms`. */
  async exitsWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
    const done = await Promise.race([this.exited.then(() => true as const), timeout]);
    clearTimeout(timer);
    return done;
  }

  /** Queues bytes without waiting for the pipe to drain (for a reader that may stop reading). */
  push(bytes: string | Uint8Array): void {
    this.child.stdin.write(bytes);
  }

  endInput(): void {
    this.child.stdin.end();
  }

  /** SIGKILLs the process group at once. */
  async kill(): Promise<void> {
    killGroup(this.pid);
    await this.exited;
  }

  /** Closes stdin (a clean shutdown), then SIGKILLs the whole group if anything is left. */
  async stop(): Promise<void> {
    if (this.alive) {
      this.child.stdin.end();
      if (!(await this.exitsWithin(5_000))) killGroup(this.pid);
      await this.exited;
    }
    killGroup(this.pid); // upstreams that outlived carte
  }

  private take(chunk: string): void {
    this.stdout += chunk;
    let nl = this.stdout.indexOf('\n');
    while (nl !== -1) {
      const line = this.stdout.slice(0, nl);
      this.stdout = this.stdout.slice(nl + 1);
      if (line !== '') this.parsed.push(parseLine(line));
      nl = this.stdout.indexOf('\n');
    }
  }
}

function parseLine(line: string): OutLine {
  try {
    return { json: true, value: JSON.parse(line) as unknown };
  } catch {
    return { json: false, text: line };
  }
}

/** SIGKILLs every process in the group led by `pid`; a group already gone is fine. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // no such group any more
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
