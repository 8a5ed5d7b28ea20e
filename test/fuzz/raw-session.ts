// A raw JSON-RPC client over the SDK's in-memory transport: it sends any message the fuzzers
// build (no client-side validation, any method) and reports exactly what the server answered.
import { InMemoryTransport } from '@modelcontextprotocol/client';

export type RequestId = string | number;

/** What the server answered one request: a result or a JSON-RPC error, never both. */
export type Answer =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'error'; error: { code: unknown; message: unknown; data?: unknown } };

/** The part of a server the session needs (the SDK `Server` fits). */
export interface Connectable {
  connect(transport: InMemoryTransport): Promise<void>;
  close(): Promise<void>;
}

/** A legacy-era (2025-11-25) session: initialize once, then send anything. */
export class RawSession {
  /** Messages the server sent that answer nothing we asked (notifications, stray responses). */
  readonly unsolicited: Record<string, unknown>[] = [];
  private readonly waiting = new Map<RequestId, (answer: Record<string, unknown>) => void>();
  private next = 1;

  private constructor(
    private readonly transport: InMemoryTransport,
    private readonly server: Connectable,
  ) {
    transport.onmessage = (message) => {
      const m = message as Record<string, unknown>;
      const resolve = 'id' in m && !('method' in m) ? this.waiting.get(m.id as RequestId) : undefined;
      if (resolve) resolve(m);
      else this.unsolicited.push(m);
    };
  }

  static async open(server: Connectable): Promise<RawSession> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const session = new RawSession(clientSide, server);
    await clientSide.start();
    const init = await session.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'fuzz', version: '0' },
    });
    if (init.kind !== 'result') throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
    await session.notify('notifications/initialized');
    return session;
  }

  /** Sends one request; rejects (naming the request) if nothing answers within `timeoutMs`. */
  async request(method: string, params?: unknown, timeoutMs = 10_000): Promise<Answer> {
    const id = this.next++;
    const message = { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) };
    const answer = await this.exchange(id, message, timeoutMs);
    if ('error' in answer)
      return { kind: 'error', error: answer.error as Extract<Answer, { kind: 'error' }>['error'] };
    return { kind: 'result', result: answer.result as Record<string, unknown> };
  }

  async notify(method: string, params?: unknown): Promise<void> {
    await this.transport.send({
      jsonrpc: '2.0',
      method,
      ...(params === undefined ? {} : { params }),
    } as never);
  }

  /** Sends a message as it is and waits for the response carrying `id`. */
  exchange(id: RequestId, message: unknown, timeoutMs: number): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`no answer within ${timeoutMs} ms to ${preview(message)}`));
      }, timeoutMs);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(answer);
      });
      this.transport.send(message as never).catch((err: unknown) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  async close(): Promise<void> {
    await this.transport.close();
    await this.server.close();
  }
}

/** A short, printable form of a message for failure reports (values may be megabytes deep). */
export function preview(value: unknown, max = 300): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch (err) {
    text = `<unprintable: ${(err as Error).message}>`;
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
