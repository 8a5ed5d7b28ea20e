// Projects (issue 15, item 1): a project sees only its servers, and its own rules apply after the
// global ones. A config without `projects` has one implicit project `default` holding every server.
import type { CallClass, CarteConfig, RateConfig, SearchConfig } from '../../config/index.js';
import { CarteError, quote } from '../../errors.js';
import { compileRules, type CompiledRules } from '../../policy/index.js';
import { parseRate, type ProjectRate } from './rate-limits.js';

export const DEFAULT_PROJECT = 'default';

export interface GatewayProject {
  id: string;
  /** Server ids it sees, or every configured server. */
  servers: readonly string[] | 'all';
  /** Its own rules, applied after the global ones. */
  rules?: CompiledRules;
  /** Its hot list size, over `menu.hotList`. */
  hotList?: number;
  /** Call classes it may never call, and those that need a person's confirmation. */
  deny: readonly CallClass[];
  confirm: readonly CallClass[];
  /** Its own search strategy (`projects.<id>.search`); absent: the top-level one. */
  search?: ProjectSearch;
  /** Its requests per minute over HTTP (`projects.<id>.rate`); absent: no limit. */
  rate?: ProjectRate;
}

/** A project's own search section, and a key naming it (equal keys share one search). */
export interface ProjectSearch {
  key: string;
  config: SearchConfig;
}

/**
 * The projects of a config (the implicit `default` when it has none), each with its own `rate` or
 * else `http.rate`. A project's `search` equal
 * to the top-level one is dropped, so it shares the top-level search's state (model, vectors).
 */
export function projectsFromConfig(
  config: Pick<CarteConfig, 'projects'> & { search?: SearchConfig; http?: { rate?: RateConfig | undefined } },
): Map<string, GatewayProject> {
  const topRate = rateOf(config.http?.rate);
  if (!config.projects) return new Map([[DEFAULT_PROJECT, { ...implicitDefault(), ...topRate }]]);
  const top = config.search && JSON.stringify(config.search);
  const searchOf = (search: SearchConfig | undefined): ProjectSearch | undefined => {
    const key = search && JSON.stringify(search);
    if (!search || !key || key === top) return undefined;
    return { key, config: search };
  };
  return new Map(
    Object.entries(config.projects).map(([id, p]) => {
      const search = searchOf(p.search);
      const project: GatewayProject = {
        id,
        servers: p.servers,
        ...(p.rules.length ? { rules: compileRules(p.rules) } : {}),
        ...(p.hotList !== undefined ? { hotList: p.hotList } : {}),
        deny: p.deny,
        confirm: p.confirm,
        ...(search ? { search } : {}),
        ...(p.rate === undefined ? topRate : rateOf(p.rate)),
      };
      return [id, project];
    }),
  );
}

/** A configured rate ("600/m" per token, or {perToken, total}) in requests per minute. */
function rateOf(rate: RateConfig | undefined): { rate?: ProjectRate } {
  if (rate === undefined) return {};
  if (typeof rate === 'string') return { rate: { perToken: parseRate(rate) } };
  const per = (text: string | undefined) => (text === undefined ? undefined : parseRate(text));
  const [perToken, total] = [per(rate.perToken), per(rate.total)];
  return {
    rate: { ...(perToken === undefined ? {} : { perToken }), ...(total === undefined ? {} : { total }) },
  };
}

export function implicitDefault(): GatewayProject {
  return { id: DEFAULT_PROJECT, servers: 'all', deny: [], confirm: [] };
}

/** The project, or `denied` naming it: a caller's project that is no longer configured sees nothing. */
export function lookupProject(projects: ReadonlyMap<string, GatewayProject>, id: string): GatewayProject {
  const p = projects.get(id);
  if (p) return p;
  throw new CarteError('denied', `project ${quote(id)} is not configured`, {
    operatorMessage: `project ${quote(id)} is not configured; the projects are ${[...projects.keys()].join(', ')}`,
  });
}

/** Whether the project sees the server. */
export function projectSees(p: GatewayProject, serverId: string): boolean {
  return p.servers === 'all' || p.servers.includes(serverId);
}
