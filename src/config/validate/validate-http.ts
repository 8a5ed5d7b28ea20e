// `http:` — the keys of the HTTP face, and the one cross-field rule: the anonymous project must be
// a configured project (docs/http.md, "Authentication").
import { quote } from '../../errors.js';
import { closest } from '../problems/did-you-mean.js';
import { reportIssues } from '../problems/issues.js';
import { isRecord, type Problems } from '../problems/problems.js';
import { HttpSchema } from '../schema/schema-http.js';
import type { HttpConfig } from '../schema/schema.js';

const HTTP_KEYS = Object.keys(HttpSchema.shape);

/** The http section, or undefined when it is wrong (every problem reported). */
export function validateHttp(value: unknown, projects: unknown, out: Problems): HttpConfig | undefined {
  const parsed = HttpSchema.safeParse(value ?? {}, { reportInput: true });
  if (!parsed.success) {
    reportIssues(parsed.error.issues, { prefix: ['http'], knownKeys: HTTP_KEYS }, out);
    return undefined;
  }
  const anonymous = parsed.data.anonymousProject;
  // Without `projects:` there is one implicit project, "default".
  const ids = isRecord(projects) ? Object.keys(projects) : ['default'];
  if (anonymous !== undefined && !ids.includes(anonymous)) {
    const near = closest(anonymous, ids);
    out.error(
      ['http', 'anonymousProject'],
      `no project ${quote(anonymous)} is configured${near === undefined ? `; the projects are ${ids.map((p) => quote(p)).join(', ')}` : `; did you mean ${quote(near)}?`}`,
    );
    return undefined;
  }
  return parsed.data;
}
