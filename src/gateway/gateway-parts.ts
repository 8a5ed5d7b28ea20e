// The gateway's parts, wired once (gateway.ts holds them): the in-memory catalog mirror, the
// policies over it, the audit log, sessions, hot list, upstreams, the catalog view and its
// searches; and what happens when the catalog changes (here, or on another replica).
import { backfillCategories, RECORD_DEFAULTS } from '../catalog/index.js';
import type { CompiledRules } from '../policy/index.js';
import type { Store } from '../store/index.js';
import { onDictionaryProblem, prepareGlossFiles, useGlossFiles } from '../search/index.js';
import { runNodeJob, runNodeJobSync, type Logger } from '../upstream/index.js';
import { implicitDefault, DEFAULT_PROJECT, type GatewayProject } from './access/projects.js';
import { LIFECYCLE_DEFAULTS, type LifecycleOptions } from './calls/lifecycle.js';
import { serverDescriptions } from './calls/lookups.js';
import { PassthroughCalls } from './calls/passthrough-calls.js';
import { UpstreamEvents } from './calls/upstream-events.js';
import { UpstreamPassthrough } from './passthrough-facade.js';
import { ToolRows } from './calls/tool-rows.js';
import { Upstreams, type UpstreamLimits } from './calls/upstreams.js';
import { analysisApart } from './find/analysis-apart.js';
import { CatalogView } from './find/catalog-view.js';
import { GatewaySearch } from './find/gateway-search.js';
import { SearchStrategies } from './find/search-strategies.js';
import { HotList, HOT_LIST_DEFAULTS, type HotListOptions } from './menu/hot-list.js';
import { SessionLedger } from './menu/sessions.js';
import { CatalogMirror } from './shared/catalog-mirror.js';
import type { GatewaySearchOptions } from './shared/search-options.js';
import type { GatewayServer } from './shared/types.js';
import { AuditLog, type AuditOptions } from './trust/audit.js';
import { Policies } from './trust/policies.js';

export interface GatewayOptions {
  servers: readonly GatewayServer[];
  store: Store;
  logger: Logger;
  limits?: Partial<UpstreamLimits>;
  /** Restart and circuit-breaker constants (tests shorten them). */
  lifecycle?: Partial<LifecycleOptions>;
  /** How `searchToolsAsync` ranks; lexical when absent. */
  search?: GatewaySearchOptions;
  /** Tool rules from the config (hide, show, tag, file, pin), compiled. */
  rules?: CompiledRules;
  /** Projects by id; absent: the implicit `default` project, which sees every server. */
  projects?: ReadonlyMap<string, GatewayProject>;
  /** What the audit log keeps of call arguments (a digest by default). */
  audit?: AuditOptions;
  /** The hot list's size and the half-life of a call's weight. */
  hotList?: Partial<HotListOptions>;
  /**
   * Where the gloss files derived from the installed dictionaries are kept (the user's cache
   * dir's `dictionaries/`; docs/search-languages.md, "Memory and first-query time"); absent: dictionaries are parsed in memory.
   */
  glossFiles?: string;
  /**
   * Analyse a catalog without a stored snapshot in a child process (`carte serve`): the analysis'
   * garbage goes with it and requests are answered meanwhile. Default: in this process.
   */
  analyseApart?: boolean;
  /**
   * Whoever calls tools through this gateway can answer an upstream's form elicitation (`carte
   * call`: a prompt or `--yes`): its connections declare form elicitation, and each call's
   * `CallRequest.elicit` answers. Default: not declared (an upstream cannot ask).
   */
  answersElicitation?: boolean;
}

export interface GatewayParts {
  mirror: CatalogMirror;
  policies: Policies;
  audit: AuditLog;
  sessions: SessionLedger;
  hotList: HotList;
  upstreams: Upstreams;
  view: CatalogView;
  passthrough: UpstreamPassthrough;
  searches: SearchStrategies;
  search: GatewaySearch;
  rows: ToolRows;
}

/** Builds the parts; `servers` reads the configured servers as they are now, `changed` is called after a catalog change. */
export function gatewayParts(
  options: GatewayOptions,
  servers: () => ReadonlyMap<string, GatewayServer>,
  changed: () => Promise<void>,
): GatewayParts {
  const { store, logger } = options;
  // Process-wide, as the translator of RANKER_DEFAULTS is.
  if (options.glossFiles !== undefined) useGlossFiles(options.glossFiles, { runSync: runNodeJobSync });
  onDictionaryProblem((m) => logger.warn(m));
  const mirror = new CatalogMirror(store);
  const projects = options.projects ?? new Map([[DEFAULT_PROJECT, implicitDefault()]]);
  // Another process's change seen at a request (SQLite): the catalog, and any sign-in it made.
  const externalChange = async () => {
    await changed();
    await upstreams.reloadSignIns();
  };
  const policies = new Policies({ mirror, servers, externalChange }, options.rules, projects);
  const audit = new AuditLog(store, logger, options.audit);
  const sessions = new SessionLedger(store, logger);
  const hotList = new HotList(store, { ...HOT_LIST_DEFAULTS, ...options.hotList }, (m) => logger.warn(m));
  const upstreams = new Upstreams(
    store,
    logger,
    { ...RECORD_DEFAULTS, maxResultBytes: 8 * 1024 * 1024, ...options.limits },
    changed,
    { ...LIFECYCLE_DEFAULTS, ...options.lifecycle },
    options.answersElicitation === true,
  );
  const view = new CatalogView(
    store,
    mirror,
    () => policies.catalog(),
    () => serverDescriptions(mirror, servers()),
    logger,
    {
      glossesReady: () => prepareDictionaries(logger),
      ...(options.analyseApart ? { analyse: analysisApart(runNodeJob, (m) => logger.warn(m)) } : {}),
    },
  );
  const searches = new SearchStrategies(
    options.search ?? { strategy: 'lexical' },
    { store, logger, catalog: view },
    projects,
  );
  const search = new GatewaySearch({ audit, policies, view, searches, hotList });
  const passthrough = new UpstreamPassthrough(
    policies,
    new PassthroughCalls(upstreams, logger),
    new UpstreamEvents(upstreams, logger),
  );
  return {
    mirror,
    policies,
    audit,
    sessions,
    hotList,
    upstreams,
    view,
    passthrough,
    searches,
    search,
    rows: new ToolRows(store),
  };
}

/**
 * Reconciles the store with the configured servers, reads the catalog, and subscribes to other
 * replicas' changes (a shared store); resolves to the unsubscribe.
 */
export async function startCatalog(
  options: GatewayOptions,
  at: { servers: ReadonlyMap<string, GatewayServer>; mirror: CatalogMirror; upstreams: Upstreams },
  changed: () => Promise<void>,
): Promise<() => void> {
  const { store } = options;
  await store.servers.pruneExcept([...at.servers.keys()]);
  const stored = new Map((await store.servers.list()).map((r) => [r.id, r.configHash]));
  for (const s of at.servers.values()) {
    const dropped = await store.servers.reconcileConfig(s.id, s.configHash);
    // On a shared store this empties the server for every replica: say so, since a replica
    // whose config expands otherwise (`${dataDir}`, an env var) does it at each start.
    if (dropped && stored.has(s.id) && store.engine === 'postgres')
      options.logger.warn(
        `server "${s.id}" is configured differently from the database's copy (another replica's config, or an env var expanding otherwise): its tools are dropped for every replica until it is discovered again`,
      );
  }
  await at.mirror.load();
  // Tools stored before categories were (or whose categorising was interrupted) get theirs now.
  if (await backfillCategories(store, serverDescriptions(at.mirror, at.servers))) await at.mirror.load();
  // Another replica's sync, approval or quarantine (a shared store): read the catalog again.
  return store.subscribe((change) => {
    if (change === 'sign_ins') return void at.upstreams.reloadSignIns();
    if (change !== 'catalog') return;
    changed().catch((err: Error) =>
      options.logger.warn(`cannot read the catalog another replica changed: ${err.message}`),
    );
  });
}

/** After a catalog change: the mirror is read again and everything derived from it invalidated. */
export async function refreshAfterChange(
  p: Pick<GatewayParts, 'mirror' | 'policies' | 'rows' | 'hotList' | 'view' | 'searches'>,
): Promise<void> {
  await p.mirror.load();
  p.policies.invalidate();
  p.rows.invalidate();
  p.hotList.invalidate();
  p.view.invalidate();
  p.searches.catalogChanged();
}

/** Stops what the parts started: the mirror's re-reads, sessions, searches, upstreams, audit writes. */
export async function closeParts(
  p: Pick<GatewayParts, 'mirror' | 'sessions' | 'searches' | 'upstreams' | 'audit'>,
): Promise<void> {
  p.mirror.close();
  await p.sessions.close();
  await p.searches.close();
  await p.upstreams.close();
  await p.audit.settle();
}

/**
 * Once per dictionary version and user: the gloss files, built in a child process
 * (docs/search-languages.md, "Memory and first-query time"); a search never waits for them.
 */
export function prepareDictionaries(logger: Logger): Promise<void> {
  return prepareGlossFiles({ warn: (m) => logger.warn(m), info: (m) => logger.info(m), run: runNodeJob });
}
