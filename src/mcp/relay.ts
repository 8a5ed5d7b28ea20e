// `carte serve` on stdio, relayed to the Carte serving HTTP for the same data dir (docs/operations.md,
// "One Carte for every stdio session"). The relay works at the JSON-RPC message level: each line the
// client writes is POSTed to the daemon's /mcp over the data dir's unix socket (relay-channel.ts),
// and every message of the answers (JSON or SSE, and the session's GET stream) goes to stdout as one
// line. It keeps the client's `initialize`, so when the daemon goes away it starts the gateway in
// process, replays that handshake there (its answer is dropped) and serves the session from then on.
// A message the daemon surely never got is served in process; a request it may have got is answered
// with an error: the client sees at most that one failed call.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { DaemonChannel, DaemonGone, errorMessage, modernHeaders, type Answer } from './relay-channel.js';
import { isObject } from './tool-call.js';

/** The in-process gateway, served on the streams it is given; closed when the relay stops. */
export type StartInProcess = (streams: {
  stdin: Readable;
  stdout: Writable;
}) => Promise<{ close(): Promise<void> }>;

export interface RelayOptions {
  socketPath: string;
  /** The project the session acts in (`--project`); the daemon checks it. */
  project: string;
  /** Starts the gateway in this process (the standalone path), once, if the daemon goes away. */
  startInProcess: StartInProcess;
  /** One line for the operator (stderr; never stdout). */
  log: (line: string) => void;
  stdin?: Readable;
  stdout?: Writable;
}

export interface RelayHandle {
  /** Resolves when the client's input ends (or `close` is called). */
  readonly done: Promise<void>;
  /** Whether the session is served in process now. */
  readonly inProcess: boolean;
  close(): Promise<void>;
}

/** The id the replayed initialize is sent with, so its answer can be told apart and dropped. */
const REPLAY_ID = 'carte-relay-initialize';

/** JSON-RPC "internal error", for the one request the daemon took with it. */
const INTERNAL_ERROR = -32603;

/** How long the probe waits for a daemon that accepted the connection. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * Whether a daemon serves `socketPath`: true, false (none answers: serve standalone), or the
 * daemon's refusal (an unknown project), which the caller reports as the standalone path would.
 */
export async function findDaemon(
  socketPath: string,
  project: string,
): Promise<boolean | { refused: string }> {
  const channel = new DaemonChannel(socketPath, project);
  try {
    const probe = await channel.probe(PROBE_TIMEOUT_MS);
    return probe === undefined ? false : 'ok' in probe ? true : probe;
  } finally {
    channel.close();
  }
}

/** Relays this process's stdio session to the daemon, falling back to the gateway in process. */
export function relayStdio(options: RelayOptions): RelayHandle {
  const relay = new Relay(options);
  return relay.start();
}

type Message = Record<string, unknown>;

class Relay {
  private mode: 'daemon' | 'starting' | 'local' = 'daemon';
  private readonly channel: DaemonChannel;
  private readonly out: Writable;
  /** The client's initialize, and whether the client has its answer (then it is replayed in process). */
  private initialize: { line: string; answered: boolean; id: unknown } | undefined;
  private initialized: string | undefined;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  /** Notifications and responses are sent in order; a request waits for those before it. */
  private ordered: Promise<unknown> = Promise.resolve();
  /** Modern-era requests in flight, by id: a notifications/cancelled closes their POST. */
  private readonly modern = new Map<unknown, AbortController>();
  private readonly stream = new AbortController();
  private readonly queued: string[] = [];
  private local: { stdin: PassThrough; close(): Promise<void> } | undefined;

  constructor(private readonly options: RelayOptions) {
    this.channel = new DaemonChannel(options.socketPath, options.project);
    this.out = options.stdout ?? process.stdout;
  }

  start(): RelayHandle {
    const done = readLines(this.options.stdin ?? process.stdin, (line) => this.take(line));
    const inProcess = () => this.mode !== 'daemon';
    return {
      done,
      get inProcess() {
        return inProcess();
      },
      close: () => this.close(),
    };
  }

  private async close(): Promise<void> {
    this.stream.abort();
    for (const c of this.modern.values()) c.abort();
    this.channel.close();
    this.local?.stdin.end();
    await this.local?.close();
  }

  private take(line: string): void {
    if (line.trim() === '') return;
    if (this.mode === 'local') return void this.local?.stdin.write(`${line}\n`);
    if (this.mode === 'starting') return void this.queued.push(line);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    if (!isObject(message)) return void this.send(line, {});
    this.remember(line, message);
    if (message.method === 'notifications/cancelled' && this.cancelModern(message)) return;
    void this.send(line, message);
  }

  private remember(line: string, message: Message): void {
    if (message.method === 'initialize' && 'id' in message)
      this.initialize = { line, answered: false, id: message.id };
    else if (message.method === 'notifications/initialized') this.initialized = line;
  }

  /** A 2026-era request is cancelled by closing its POST (the spec's HTTP cancellation). */
  private cancelModern(message: Message): boolean {
    const params = isObject(message.params) ? message.params : {};
    const controller = this.modern.get(params.requestId);
    controller?.abort();
    return controller !== undefined;
  }

  private async send(line: string, message: Message): Promise<void> {
    const isRequest = typeof message.method === 'string' && 'id' in message;
    const modern = isRequest ? modernHeaders(message) : undefined;
    const controller = modern ? new AbortController() : undefined;
    if (controller) this.modern.set(message.id, controller);
    const post = async (): Promise<void> => {
      try {
        await this.deliver(line, message, modern, controller?.signal);
      } catch (err) {
        if (controller?.signal.aborted) return; // the client cancelled it: nothing to answer
        if (!(err instanceof DaemonGone)) throw err;
        this.daemonGone(err, line, isRequest ? message.id : undefined);
      } finally {
        if (controller) this.modern.delete(message.id);
      }
    };
    if (isRequest) {
      await this.ordered;
      return post();
    }
    const next = this.ordered.then(post);
    this.ordered = next.catch(() => undefined);
    return next;
  }

  private async deliver(
    line: string,
    message: Message,
    modern?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<void> {
    let answer = await this.channel.post(line, this.headers(modern), (m) => this.fromDaemon(m), signal);
    // The daemon closed an idle session (or restarted): open a new one there and send again.
    if (
      answer.status === 404 &&
      this.sessionId !== undefined &&
      modern === undefined &&
      (await this.reopen())
    )
      answer = await this.channel.post(line, this.headers(), (m) => this.fromDaemon(m), signal);
    if (message.method === 'initialize' && answer.sessionId !== undefined) this.sessionId = answer.sessionId;
    if (answer.status >= 300) this.refused(answer, message);
    else if (message.method === 'notifications/initialized' && this.sessionId !== undefined) this.listen();
  }

  private headers(modern?: Record<string, string>): Record<string, string> {
    if (modern) return modern;
    const headers: Record<string, string> = {};
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  /**
   * A message from the daemon (its JSON text): to the client as one line, except the answer to a
   * replayed initialize. Most are passed on unparsed; the client's initialize answer is read once.
   */
  private fromDaemon(text: string): void {
    const init = this.initialize;
    const look = (init !== undefined && !init.answered) || text.includes(REPLAY_ID) || !text.startsWith('{');
    if (!look && !text.includes('\n')) return void this.out.write(`${text}\n`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // not JSON: nothing a client could read
    }
    for (const m of Array.isArray(parsed) ? (parsed as unknown[]) : [parsed]) {
      if (!isObject(m) || m.id === REPLAY_ID) continue;
      if (init && !init.answered && 'id' in m && m.id === init.id && isObject(m.result)) {
        init.answered = true;
        if (typeof m.result.protocolVersion === 'string') this.protocolVersion = m.result.protocolVersion;
      }
      this.write(m);
    }
  }

  /** A non-2xx answer: a request gets the daemon's JSON-RPC error under its own id. */
  private refused(answer: Answer, message: Message): void {
    if (!('id' in message) || typeof message.method !== 'string') return;
    const text = errorMessage(answer.errorBody) ?? `the Carte daemon answered HTTP ${answer.status}`;
    this.write({ jsonrpc: '2.0', id: message.id, error: { code: INTERNAL_ERROR, message: text } });
  }

  /** Opens a new session on the daemon with the client's own initialize (its answer dropped). */
  private async reopen(): Promise<boolean> {
    if (this.initialize === undefined) return false;
    this.sessionId = undefined;
    const replay = JSON.stringify({ ...(JSON.parse(this.initialize.line) as Message), id: REPLAY_ID });
    const answer = await this.channel.post(replay, {}, () => undefined);
    if (answer.status >= 300 || answer.sessionId === undefined) return false;
    this.sessionId = answer.sessionId;
    if (this.initialized !== undefined)
      await this.channel.post(this.initialized, this.headers(), () => undefined);
    return true;
  }

  /** The session's GET stream: server messages outside any request (list_changed). */
  private listen(): void {
    this.channel
      .listen(this.headers(), (m) => this.fromDaemon(m), this.stream.signal)
      .catch((err: unknown) => {
        if (this.stream.signal.aborted || !(err instanceof DaemonGone)) return;
        // The stream broke, not ended: the daemon is likely gone; start in process now, not at the next call.
        void this.goLocal(err.message);
      });
  }

  private daemonGone(err: DaemonGone, line: string, requestId: unknown): void {
    if (!err.delivered) {
      // It never reached a daemon: serve it in process, in turn with what follows.
      if (this.mode === 'daemon') void this.goLocal(err.message);
      return this.take(line);
    }
    if (requestId !== undefined)
      this.write({
        jsonrpc: '2.0',
        id: requestId,
        error: {
          code: INTERNAL_ERROR,
          message:
            'the Carte daemon went away during this request; Carte now serves this session in process: try again',
        },
      });
    void this.goLocal(err.message);
  }

  private async goLocal(why: string): Promise<void> {
    if (this.mode !== 'daemon') return;
    this.mode = 'starting';
    this.options.log(
      `carte: the daemon on ${this.options.socketPath} went away (${why}); serving this session in process`,
    );
    this.stream.abort();
    this.channel.close();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    this.forward(stdout);
    try {
      const served = await this.options.startInProcess({ stdin, stdout });
      this.local = { stdin, close: () => served.close() };
    } catch (err) {
      this.options.log(`carte: cannot serve in process: ${(err as Error).message}`);
      process.exitCode = 1;
      (this.options.stdin ?? process.stdin).destroy();
      return;
    }
    if (this.initialize?.answered) {
      stdin.write(`${JSON.stringify({ ...(JSON.parse(this.initialize.line) as Message), id: REPLAY_ID })}\n`);
      if (this.initialized !== undefined) stdin.write(`${this.initialized}\n`);
    }
    this.mode = 'local';
    for (const line of this.queued.splice(0)) stdin.write(`${line}\n`);
  }

  /** The in-process server's output to stdout, without the replayed initialize's answer. */
  private forward(stdout: PassThrough): void {
    let replayed = !this.initialize?.answered;
    void readLines(stdout, (line) => {
      if (!replayed && line.includes(REPLAY_ID)) {
        const m = JSON.parse(line) as unknown;
        if (isObject(m) && m.id === REPLAY_ID) return void (replayed = true);
      }
      this.out.write(`${line}\n`);
    });
  }

  private write(message: unknown): void {
    this.out.write(`${JSON.stringify(message)}\n`);
  }
}

/** Calls `onLine` for each line of `input` (without its newline); resolves when the input ends. */
function readLines(input: Readable, onLine: (line: string) => void): Promise<void> {
  let rest = '';
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      const line = rest + chunk.slice(start, nl);
      rest = '';
      start = nl + 1;
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    rest += chunk.slice(start);
  });
  return new Promise((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
}
