import type { Logger } from '../../upstream/index.js';

/** The same warning is logged at most once per this many milliseconds (a flaky provider would spam). */
export const WARN_INTERVAL_MS = 60_000;

/** Warnings remembered; past this the memory is cleared (reasons carry ids and numbers, not user text). */
const MAX_REMEMBERED = 100;

/** A `warn` that drops a message logged less than `intervalMs` ago. */
export function throttledWarn(
  logger: Logger,
  intervalMs: number = WARN_INTERVAL_MS,
): (message: string) => void {
  const last = new Map<string, number>();
  return (message) => {
    const now = Date.now();
    const at = last.get(message);
    if (at !== undefined && now - at < intervalMs) return;
    if (last.size >= MAX_REMEMBERED) last.clear();
    last.set(message, now);
    logger.warn(message);
  };
}
