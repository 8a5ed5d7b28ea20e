import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { compileRules, LOCAL_CALLER, projectsFromConfig, serversFromConfig } from '../../gateway/index.js';
import { loadConfig, type App, type GlobalFlags } from './app.js';

/** Quiet time after the last file event before reloading (editors write in several steps). */
const DEBOUNCE_MS = 200;

/**
 * Reloads the config when its file changes or on SIGHUP, one reload at a time. A config with
 * problems is refused and the running one kept. Returns a function that stops watching.
 */
export function watchConfig(app: App, flags: GlobalFlags): () => void {
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  const reload = (why: string) => {
    chain = chain.then(() => reloadOnce(app, flags, why));
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => reload('the config file changed'), DEBOUNCE_MS);
  };
  let watcher: FSWatcher | undefined;
  if (app.source !== 'demo') {
    // Watch the folder, not the file: editors often replace the file, which ends a file watch.
    watcher = watch(dirname(app.path), (_event, name) => {
      if (name === basename(app.path)) soon();
    });
    watcher.on('error', (err) => app.logger.warn(`config watch stopped: ${err.message}`));
  }
  const onHup = () => reload('SIGHUP');
  process.on('SIGHUP', onHup);
  return () => {
    clearTimeout(timer);
    watcher?.close();
    process.off('SIGHUP', onHup);
  };
}

async function reloadOnce(app: App, flags: GlobalFlags, why: string): Promise<void> {
  try {
    const loaded = loadConfig({ ...flags, ...(app.source === 'demo' ? {} : { config: app.path }) });
    const r = await app.gateway.reload(LOCAL_CALLER, serversFromConfig(loaded.config), {
      rules: compileRules(loaded.config.rules),
      projects: projectsFromConfig(loaded.config),
      hotList: { size: loaded.config.menu.hotList, halfLifeDays: loaded.config.menu.halfLifeDays },
    });
    const parts = [
      r.added.length ? `added ${r.added.join(', ')}` : '',
      r.removed.length ? `removed ${r.removed.join(', ')}` : '',
      r.changed.length ? `restarted ${r.changed.join(', ')}` : '',
      r.updated.length ? `updated ${r.updated.join(', ')}` : '',
    ].filter(Boolean);
    app.logger.info(`config reloaded (${why}): ${parts.join('; ') || 'no server changed'}`);
    for (const s of r.syncs.filter((x) => x.status === 'failed'))
      app.logger.warn(`[${s.server}] ${s.error ?? 'discovery failed'}`);
  } catch (err) {
    app.logger.error(`config reload (${why}) refused, the running config stays: ${(err as Error).message}`);
  }
}
