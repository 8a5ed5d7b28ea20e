import type { Logger } from '../../gateway/index.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A logger that writes `carte <level>: message` lines to stderr; stdout stays for output and protocol. */
export function createLogger(level: LogLevel): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const at = (l: LogLevel) => (message: string) => {
    if (LOG_LEVELS.indexOf(l) >= min) process.stderr.write(`carte ${l}: ${message}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
