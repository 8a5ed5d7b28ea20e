// `carte serve` on stdio when a Carte serving HTTP runs for the same data dir (docs/operations.md,
// "One Carte for every stdio session"): this process relays the session to it over the data dir's
// unix socket and opens no store and starts no upstream, unless the daemon goes away; then it serves
// the session itself from then on (src/mcp/relay.ts). `--standalone` skips all of this.
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { CarteError } from '../../../errors.js';
import { DEFAULT_PROJECT } from '../../../gateway/index.js';
import { daemonSocketPath, dataDirOf, openApp } from '../../shared/app.js';
import { note } from '../../shared/output.js';
import { watchConfig } from '../../shared/watch-config.js';
import type { ServeFlags } from './serve-http.js';
import { checkpointInBackground, checkProject, serveStdioSession } from './serve-stdio.js';
import { syncWithProgress } from '../../shared/sync-progress.js';

/**
 * Relays this stdio session to the daemon for the flags' data dir and resolves once the client is
 * gone; false at once when no daemon answers there (serve standalone).
 */
export async function serveRelayed(flags: ServeFlags): Promise<boolean> {
  // Windows has no unix socket here: each session runs on its own (docs/operations.md).
  if (process.platform === 'win32') return false;
  const dataDir = dataDirOf(flags);
  const socketPath = daemonSocketPath(dataDir);
  if (!existsSync(socketPath)) return false;
  const project = flags.project ?? DEFAULT_PROJECT;
  // Loaded only now: a session with no daemon never pays for the relay.
  const { findDaemon, relayStdio } = await import('../../../mcp/index.js');
  const found = await findDaemon(socketPath, project);
  if (found === false) return false;
  if ('refused' in found) throw new CarteError('bad_input', found.refused);
  note(
    `Relaying this session to the Carte serving ${dataDir} (${socketPath}); --standalone runs a gateway of its own.`,
  );
  const relay = relayStdio({
    daemon: found,
    socketPath,
    log: note,
    startInProcess: (streams) => startInProcess(flags, project, streams),
  });
  const stop = (code: number) => {
    process.exitCode = code;
    void relay.close().finally(() => process.exit());
  };
  process.once('SIGINT', () => stop(130));
  process.once('SIGTERM', () => stop(143));
  await relay.done;
  await relay.close();
  return true;
}

/** The standalone path on the relay's own streams: open the store, build the gateway, serve. */
async function startInProcess(
  flags: ServeFlags,
  project: string,
  streams: { stdin: Readable; stdout: Writable },
): Promise<{ close(): Promise<void> }> {
  const app = await openApp(flags, 'info', { gateway: true });
  try {
    checkpointInBackground(app);
    checkProject(app, project);
    if (flags.sync !== false) await syncWithProgress(app.gateway, { onlyStale: true });
  } catch (err) {
    await app.close();
    throw err;
  }
  const stopWatching = watchConfig(app, flags);
  const session = await serveStdioSession(app, { ...streams, project, stop: () => process.stdin.destroy() });
  return {
    close: async () => {
      stopWatching();
      await session.close();
      await app.close();
    },
  };
}
