import type { App, GlobalFlags } from './app.js';
import { watchConfig } from './watch-config.js';

/**
 * Serves until a signal (or a face's own reason, through `shutdown`) stops it, watching the config
 * meanwhile; then stops the face, closes the app and sets the exit code (SIGINT 130, SIGTERM 143).
 * Shared by `carte serve` on stdio and over HTTP.
 */
export function serveUntilStopped(
  app: App,
  flags: GlobalFlags,
  start: (shutdown: (code: number) => void) => { stop: () => Promise<void> },
): Promise<void> {
  const stopWatching = watchConfig(app, flags);
  return new Promise<void>((resolve) => {
    // Set once start() returns; a shutdown during start() has no face to stop yet.
    const running: { face?: { stop: () => Promise<void> } } = {};
    let closing = false;
    const shutdown = (code: number) => {
      if (closing) return;
      closing = true;
      stopWatching();
      process.exitCode = code;
      void (running.face?.stop() ?? Promise.resolve()).then(() => app.close()).finally(resolve);
    };
    running.face = start(shutdown);
    process.once('SIGINT', () => shutdown(130));
    process.once('SIGTERM', () => shutdown(143));
  });
}
