import { quote } from '../../errors.js';
import { expandTemplate, type TemplateContext } from '../variables/interpolate.js';
import { reportIssues } from '../problems/issues.js';
import { formatPath, type Problems, type Segment } from '../problems/problems.js';
import { resolveRerank } from './resolve-rerank.js';
import { isHttpUrl } from './resolve-server.js';
import type { RemoteSearchConfig, SearchConfig } from '../schema/schema.js';
import { LlmRerankSchema } from '../schema/schema-rerank.js';
import {
  RemoteEmbeddingsSchema,
  RemoteRerankSchema,
  RemoteSearchSchema,
  SearchSchema,
} from '../schema/schema-search.js';

/** Where the search section's variables come from (no server: messages name the section's path). */
export type SearchContext = Omit<TemplateContext, 'server' | 'owner'>;

/** Keys of the objects nested in a search section, by their dotted path, for "did you mean". */
const NESTED_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ['remote', Object.keys(RemoteSearchSchema.shape)],
  ['remote.embeddings', Object.keys(RemoteEmbeddingsSchema.shape)],
  ['remote.rerank', Object.keys(RemoteRerankSchema.shape)],
  ['rerank', Object.keys(LlmRerankSchema.shape)],
]);

/**
 * A search section as written (`search`, or `projects.<id>.search` at `at`), checked against the
 * schema and then resolved (resolveSearch). Undefined on any error.
 */
export function validateSearch(
  value: unknown,
  at: readonly Segment[],
  ctx: SearchContext,
  out: Problems,
): SearchConfig | undefined {
  const parsed = SearchSchema.safeParse(value ?? {}, { reportInput: true });
  if (!parsed.success) {
    const keysAt = (path: readonly Segment[]) => NESTED_KEYS.get(path.join('.'));
    const knownKeys = Object.keys(SearchSchema.shape);
    reportIssues(parsed.error.issues, { prefix: [...at], knownKeys, keysAt }, out);
    return undefined;
  }
  return resolveSearch(parsed.data, ctx, out, at);
}

/**
 * Expands variables in the remote providers' `url` and `apiKey`, checks the URLs, and applies
 * the cross-field rules of the search section at `at` (messages name it). Undefined on any error.
 */
export function resolveSearch(
  search: SearchConfig,
  ctx: SearchContext,
  out: Problems,
  at: readonly Segment[] = ['search'],
): SearchConfig | undefined {
  const { strategy, remote } = search;
  const name = formatPath(at);
  if (strategy === 'remote' && remote?.embeddings === undefined && remote?.rerank === undefined) {
    out.error(
      [...at, 'strategy'],
      `"remote" needs ${name}.remote.embeddings or ${name}.remote.rerank (or both)`,
    );
    return undefined;
  }
  const remoteRerank = strategy === 'remote' && remote?.rerank !== undefined;
  const rerank = search.rerank && resolveRerank(search.rerank, { ...ctx, remoteRerank, at }, out);
  const bad = search.rerank !== undefined && rerank === undefined;
  const base = rerank ? { ...search, rerank } : search;
  if (remote === undefined) return bad ? undefined : base;
  if (strategy !== 'remote') {
    out.warn([...at, 'remote'], `ignored: ${name}.strategy is ${quote(strategy)}, not "remote"`);
  }
  const resolved = resolveRemote(remote, { ...ctx, at }, out);
  return bad ? undefined : resolved && { ...base, remote: resolved };
}

function resolveRemote(
  remote: RemoteSearchConfig,
  ctx: SearchContext & { at: readonly Segment[] },
  out: Problems,
): RemoteSearchConfig | undefined {
  const AT = [...ctx.at, 'remote'];
  const template = { ...ctx, server: 'search', owner: formatPath(AT) };
  const before = out.errors.length;
  const expand = (raw: string, at: Segment[]): string | undefined => {
    const r = expandTemplate(raw, template);
    if (!r.ok) out.error([...AT, ...at], r.message);
    return r.ok ? r.value : undefined;
  };
  const provider = <P extends { url: string; apiKey?: string | undefined }>(p: P, key: string): P => {
    const url = expand(p.url, [key, 'url']);
    const apiKey = p.apiKey === undefined ? undefined : expand(p.apiKey, [key, 'apiKey']);
    // Quote the URL as written: the expanded one may carry a secret from the environment.
    if (url !== undefined && !isHttpUrl(url))
      out.error([...AT, key, 'url'], `${quote(p.url)} is not an http:// or https:// URL`);
    return { ...p, url: url ?? p.url, ...(apiKey === undefined ? {} : { apiKey }) };
  };
  const embeddings = remote.embeddings && provider(remote.embeddings, 'embeddings');
  const rerank = remote.rerank && provider(remote.rerank, 'rerank');
  if (out.errors.length > before) return undefined;
  return { ...remote, ...(embeddings ? { embeddings } : {}), ...(rerank ? { rerank } : {}) };
}
