// `projects:` — each project's keys, its servers (which must be configured) and its own rules,
// checked with the same rule checker as the global `rules`, and its own `search` section checked
// like the top-level one (docs/security.md, "Projects").
import { quote } from '../../errors.js';
import { closest } from '../problems/did-you-mean.js';
import { reportIssues } from '../problems/issues.js';
import { describeValue, isRecord, type Problems } from '../problems/problems.js';
import { ProjectSchema, type ProjectConfig } from '../schema/schema.js';
import { badIdMessage, isServerId } from '../schema/server-ids.js';
import { validateRules } from './validate-rules.js';
import { validateSearch, type SearchContext } from './resolve-search.js';

const PROJECT_KEYS = Object.keys(ProjectSchema.shape);
const ProjectOptionsSchema = ProjectSchema.omit({ rules: true, search: true });

/** The projects, or undefined when any is wrong (every problem reported); absent stays absent. */
export function validateProjects(
  value: unknown,
  known: { serverIds: readonly string[]; ctx: SearchContext },
  out: Problems,
): { ok: boolean; projects?: Record<string, ProjectConfig> } {
  const { serverIds, ctx } = known;
  if (value === undefined || value === null) return { ok: true };
  if (!isRecord(value)) {
    out.error(['projects'], `expected an object of projects by id, got ${describeValue(value)}`);
    return { ok: false };
  }
  const projects: Record<string, ProjectConfig> = {};
  let ok = true;
  for (const [id, raw] of Object.entries(value)) {
    const path = ['projects', id];
    if (!isServerId(id)) {
      out.error(path, badIdMessage(id).replace('server id', 'project id'));
      ok = false;
      continue;
    }
    if (!isRecord(raw)) {
      out.error(path, `expected an object with "servers", got ${describeValue(raw)}`);
      ok = false;
      continue;
    }
    const { rules: rawRules, search: rawSearch, ...options } = raw;
    const parsed = ProjectOptionsSchema.safeParse(options, { reportInput: true });
    if (!parsed.success) reportIssues(parsed.error.issues, { prefix: path, knownKeys: PROJECT_KEYS }, out);
    const rules = validateRules(rawRules, serverIds, out, [...path, 'rules']);
    const search =
      rawSearch === undefined ? undefined : validateSearch(rawSearch, [...path, 'search'], ctx, out);
    if (!parsed.success || !rules || (rawSearch !== undefined && !search)) {
      ok = false;
      continue;
    }
    parsed.data.servers.forEach((server, i) => {
      if (serverIds.includes(server)) return;
      const near = closest(server, serverIds);
      out.error(
        [...path, 'servers', i],
        `no server ${quote(server)} is configured${near === undefined ? '' : `; did you mean ${quote(near)}?`}`,
      );
      ok = false;
    });
    projects[id] = { ...parsed.data, rules, ...(search ? { search } : {}) };
  }
  return ok ? { ok, projects } : { ok };
}
