// Projects (issue 15, item 1): a project sees only its servers, and its own rules apply after the
// global ones. A config without `projects` has one implicit project `default` holding every server.
import type { CallClass, CarteConfig } from '../../config/index.js';
import { CarteError, quote } from '../../errors.js';
import { compileRules, type CompiledRules } from '../../policy/index.js';

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
}

/** The projects of a config (the implicit `default` when it has none). */
export function projectsFromConfig(config: Pick<CarteConfig, 'projects'>): Map<string, GatewayProject> {
  if (!config.projects) return new Map([[DEFAULT_PROJECT, implicitDefault()]]);
  return new Map(
    Object.entries(config.projects).map(([id, p]) => [
      id,
      {
        id,
        servers: p.servers,
        ...(p.rules.length ? { rules: compileRules(p.rules) } : {}),
        ...(p.hotList !== undefined ? { hotList: p.hotList } : {}),
        deny: p.deny,
        confirm: p.confirm,
      },
    ]),
  );
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
