// Each project's search strategy (issue 29, item 3): the top-level search, and one ToolSearch per
// distinct `projects.<id>.search`, made once per config change and shared by the projects whose
// sections are equal. A search finds its ToolSearch by the caller's project, a map lookup.
import type { Store } from '../../store/index.js';
import type { Logger } from '../../upstream/index.js';
import type { GatewayProject } from '../access/projects.js';
import type { GatewaySearchOptions, SearchStatus } from '../shared/search-options.js';
import type { CatalogView } from './catalog-view.js';
import { searchOptionsFromConfig } from './search-config.js';
import { ToolSearch } from './tool-search.js';

/** One project's search as `carte doctor` shows it: its own strategy, or the top-level one. */
export interface ProjectSearchStatus {
  project: string;
  /** The project has its own `search` section (else it uses the top-level one). */
  own: boolean;
  status: SearchStatus;
}

export class SearchStrategies {
  readonly main: ToolSearch;
  /** The projects' own searches, by config key. */
  private byKey = new Map<string, ToolSearch>();
  /** Project id -> its own search (projects without one use `main`). */
  private byProject = new Map<string, ToolSearch>();

  constructor(
    private readonly mainOptions: GatewaySearchOptions,
    private readonly deps: { store: Store; logger: Logger; catalog: CatalogView },
    projects: ReadonlyMap<string, GatewayProject>,
  ) {
    this.main = new ToolSearch(mainOptions, deps);
    this.place(projects);
  }

  /** The search of this project's callers: its own, else the top-level one (also for an unknown id). */
  of(projectId: string): ToolSearch {
    return this.byProject.get(projectId) ?? this.main;
  }

  /** New projects (a config reload): searches whose section is unchanged keep their state; dropped ones close. */
  async configure(projects: ReadonlyMap<string, GatewayProject>): Promise<void> {
    const before = this.byKey;
    this.place(projects, before);
    const kept = new Set(this.byKey.values());
    await Promise.all([...before.values()].filter((s) => !kept.has(s)).map((s) => s.close()));
  }

  /**
   * Prepares every strategy in use (each once) and reports the top-level one and each project's;
   * `projects` is empty when no project has a strategy of its own.
   */
  async prepareAll(
    projectIds: readonly string[],
  ): Promise<{ top: SearchStatus; projects: ProjectSearchStatus[] }> {
    const prepared = new Map<ToolSearch, Promise<SearchStatus>>();
    const statusOf = (s: ToolSearch) => {
      if (!prepared.has(s)) prepared.set(s, s.prepare());
      return prepared.get(s)!;
    };
    const ids = this.byProject.size ? projectIds : [];
    const projects = ids.map(async (project) => {
      const search = this.of(project);
      return { project, own: search !== this.main, status: await statusOf(search) };
    });
    return { top: await statusOf(this.main), projects: await Promise.all(projects) };
  }

  catalogChanged(): void {
    for (const s of this.all()) s.catalogChanged();
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((s) => s.close()));
  }

  private all(): ToolSearch[] {
    return [this.main, ...this.byKey.values()];
  }

  private place(projects: ReadonlyMap<string, GatewayProject>, old = new Map<string, ToolSearch>()): void {
    this.byKey = new Map();
    this.byProject = new Map();
    for (const p of projects.values()) {
      if (!p.search) continue;
      const { key, config } = p.search;
      let search = this.byKey.get(key) ?? old.get(key);
      // Embedding progress is reported as the top-level search's is (the CLI prints it).
      if (!search)
        search = new ToolSearch(searchOptionsFromConfig(config, this.mainOptions.onProgress), this.deps);
      this.byKey.set(key, search);
      this.byProject.set(p.id, search);
    }
  }
}
