// `carte serve` on stdio, relayed to the Carte serving HTTP for the same data dir (docs/operations.md,
// "One Carte for every stdio session"). The relay opens the data dir's unix socket, asks the daemon
// to switch the connection to a stdio session (`Upgrade: carte-stdio`), and from then on passes
// lines both ways unchanged: the daemon serves the session exactly as `carte serve --standalone`
// would on stdio. It reads the client's lines to keep its `initialize` and the ids of requests in
// flight, and the daemon's to see which of them were answered; when the daemon goes away it starts
// the gateway in process, replays that handshake there (its answer is dropped), answers each
// request in flight with an error (the client sees at most those failed calls), and serves the
// session from then on.
import { connect, type Socket } from 'node:net';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { isObject } from './tool-call.js';

/** The upgrade token a relay asks for, the path it asks on, and its project's header. */
export const RELAY_UPGRADE = 'carte-stdio';
export const RELAY_PATH = '/relay';
export const RELAY_PROJECT_HEADER = 'x-carte-project';

/** The in-process gateway, served on the streams it is given; closed when the relay stops. */
export type StartInProcess = (streams: {
  stdin: Readable;
  stdout: Writable;
}) => Promise<{ close(): Promise<void> }>;

export interface RelayOptions {
  /** The daemon's connection, switched to a stdio session (findDaemon). */
  daemon: Socket;
  /** Where the daemon listens, for the operator's note when it goes away. */
  socketPath: string;
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

/** JSON-RPC "internal error", for the requests the daemon took with it. */
const INTERNAL_ERROR = -32603;

/** How long the probe waits for a daemon that accepted the connection. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * The daemon's connection switched to a stdio session for `project`; false when none answers at
 * `socketPath` (serve standalone); the daemon's refusal (an unknown project) as it wrote it.
 */
export function findDaemon(
  socketPath: string,
  project: string,
): Promise<Socket | false | { refused: string }> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let head = '';
    const fail = () => {
      socket.destroy();
      resolve(false);
    };
    const timer = setTimeout(fail, PROBE_TIMEOUT_MS);
    socket.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    socket.once('connect', () =>
      socket.write(
        `GET ${RELAY_PATH} HTTP/1.1\r\nhost: localhost\r\nconnection: Upgrade\r\nupgrade: ${RELAY_UPGRADE}\r\n` +
          `${RELAY_PROJECT_HEADER}: ${project}\r\n\r\n`,
      ),
    );
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      if (status !== '101') {
        // A refusal: its body (content-length) follows the head, then the daemon closes.
        socket.once('end', () => {
          clearTimeout(timer);
          const body = Buffer.from(head.slice(end + 4), 'latin1').toString('utf8');
          resolve(status === '400' && body !== '' ? { refused: body } : false);
        });
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.removeAllListeners('error');
      const rest = Buffer.from(head.slice(end + 4), 'latin1');
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

/** Relays this process's stdio session to the daemon, falling back to the gateway in process. */
export function relayStdio(options: RelayOptions): RelayHandle {
  return new Relay(options).start();
}

type Message = Record<string, unknown>;

class Relay {
  private mode: 'daemon' | 'starting' | 'local' | 'closed' = 'daemon';
  private readonly out: Writable;
  /** The client's initialize, and whether the client has its answer (then it is replayed in process). */
  private initialize: { line: string; answered: boolean; id: unknown } | undefined;
  private initialized: string | undefined;
  /** The client's requests the daemon has not answered yet. */
  private readonly inFlight = new Set<unknown>();
  private readonly queued: string[] = [];
  private local: { stdin: PassThrough; close(): Promise<void> } | undefined;

  constructor(private readonly options: RelayOptions) {
    this.out = options.stdout ?? process.stdout;
  }

  start(): RelayHandle {
    const { daemon } = this.options;
    daemon.on('error', () => undefined); // its close follows, and is what counts
    daemon.once('close', () => void this.goLocal('its connection closed'));
    void readLines(daemon, (line) => this.fromDaemon(line));
    const done = readLines(this.options.stdin ?? process.stdin, (line) => this.take(line));
    const inProcess = () => this.mode === 'starting' || this.mode === 'local';
    return {
      done,
      get inProcess() {
        return inProcess();
      },
      close: () => this.close(),
    };
  }

  private async close(): Promise<void> {
    if (this.mode === 'daemon') this.mode = 'closed';
    this.options.daemon.destroy();
    this.local?.stdin.end();
    await this.local?.close();
  }

  /** A line from the client: to the daemon (noting what the fallback needs), or to the gateway here. */
  private take(line: string): void {
    if (line.trim() === '') return;
    if (this.mode === 'local') return void this.local?.stdin.write(`${line}\n`);
    if (this.mode !== 'daemon') return void this.queued.push(line);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined; // the daemon answers a parse error as the standalone path does
    }
    if (isObject(message)) this.remember(line, message);
    this.options.daemon.write(`${line}\n`);
  }

  private remember(line: string, message: Message): void {
    const isRequest = typeof message.method === 'string' && 'id' in message;
    if (isRequest) this.inFlight.add(message.id);
    if (message.method === 'initialize' && isRequest)
      this.initialize = { line, answered: false, id: message.id };
    else if (message.method === 'notifications/initialized') this.initialized = line;
  }

  /** A line from the daemon, to stdout as it is; a response settles its request in flight. */
  private fromDaemon(line: string): void {
    if (this.inFlight.size > 0) {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        message = undefined;
      }
      if (isObject(message) && 'id' in message && !('method' in message)) {
        this.inFlight.delete(message.id);
        const init = this.initialize;
        if (init && !init.answered && message.id === init.id) init.answered = true;
      }
    }
    this.out.write(`${line}\n`);
  }

  private async goLocal(why: string): Promise<void> {
    if (this.mode !== 'daemon') return;
    this.mode = 'starting';
    this.options.log(
      `carte: the daemon on ${this.options.socketPath} went away (${why}); serving this session in process`,
    );
    for (const id of this.inFlight)
      if (this.initialize === undefined || id !== this.initialize.id || this.initialize.answered)
        this.write({
          jsonrpc: '2.0',
          id,
          error: {
            code: INTERNAL_ERROR,
            message:
              'the Carte daemon went away during this request; Carte now serves this session in process: try again',
          },
        });
    // An initialize the daemon never answered is sent again in process, as the client's own.
    const resend = this.initialize !== undefined && !this.initialize.answered;
    this.inFlight.clear();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    this.forward(stdout, !resend && this.initialize !== undefined);
    try {
      const served = await this.options.startInProcess({ stdin, stdout });
      this.local = { stdin, close: () => served.close() };
    } catch (err) {
      this.options.log(`carte: cannot serve in process: ${(err as Error).message}`);
      process.exitCode = 1;
      (this.options.stdin ?? process.stdin).destroy();
      return;
    }
    if (this.initialize !== undefined) {
      const line = resend
        ? this.initialize.line
        : JSON.stringify({ ...(JSON.parse(this.initialize.line) as Message), id: REPLAY_ID });
      stdin.write(`${line}\n`);
      if (this.initialized !== undefined) stdin.write(`${this.initialized}\n`);
    }
    this.mode = 'local';
    for (const line of this.queued.splice(0)) stdin.write(`${line}\n`);
  }

  /** The in-process server's output to stdout, without the replayed initialize's answer. */
  private forward(stdout: PassThrough, replaying: boolean): void {
    let replayed = !replaying;
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
