// The stdio client transport's line reader, replaced (plain-calls.ts): the SDK's reads each line as
// JSON, then checks it against its JSON-RPC schema. This one offers the parsed line to `take` first,
// so a plain call's response is parsed once; every other line gets the SDK's own check, and the
// transport sees what it saw before. Same read limit and wording as the SDK's, which
// connection.ts recognises to explain an oversized result.
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

interface ReadBufferLike {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

export class LineReader implements ReadBufferLike {
  private buffer: Buffer | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly take: (message: unknown) => boolean,
  ) {}

  append(chunk: Buffer): void {
    if ((this.buffer?.length ?? 0) + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): JSONRPCMessage | null {
    while (this.buffer) {
      const index = this.buffer.indexOf(10);
      if (index === -1) return null;
      const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(index + 1);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        if (error instanceof SyntaxError) continue; // the SDK skips a line that is not JSON
        throw error;
      }
      if (this.take(value)) continue;
      return parseJSONRPCMessage(value);
    }
    return null;
  }

  clear(): void {
    this.buffer = undefined;
  }
}

/**
 * Puts a LineReader in place of the transport's reader (a private field of the SDK's
 * StdioClientTransport), keeping any bytes it holds; false when the transport has none (another
 * kind, or the SDK changed shape): then every line goes through the SDK as before.
 */
export function installLineReader(transport: Transport, reader: LineReader): boolean {
  const t = transport as unknown as { _readBuffer?: Partial<ReadBufferLike> & { _buffer?: unknown } };
  const old = t._readBuffer;
  if (typeof old?.readMessage !== 'function' || typeof old.append !== 'function' || !('_buffer' in old))
    return false;
  if (Buffer.isBuffer(old._buffer) && old._buffer.length > 0) reader.append(old._buffer); // a line half read
  t._readBuffer = reader;
  return true;
}
