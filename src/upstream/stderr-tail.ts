import type { Logger } from './types.js';

/** Keeps the last `max` characters an upstream wrote to stderr and logs each line at debug level. */
export class StderrTail {
  private text = '';
  private partial = '';

  constructor(
    private readonly serverId: string,
    private readonly logger: Logger,
    private readonly max = 4096,
  ) {}

  write(chunk: Buffer | string): void {
    const s = chunk.toString();
    this.text = (this.text + s).slice(-this.max);
    const lines = (this.partial + s).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) this.logger.debug(`[${this.serverId}] ${line}`);
  }

  /** The last few lines, trimmed, for an error message. */
  tail(lines = 5): string {
    return this.text.trim().split('\n').slice(-lines).join('\n');
  }
}
