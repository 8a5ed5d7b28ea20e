import { quote } from '../../errors.js';
import { expandTemplate, type TemplateContext } from '../variables/interpolate.js';
import type { Problems, Segment } from '../problems/problems.js';
import { resolveRerank } from './resolve-rerank.js';
import { isHttpUrl } from './resolve-server.js';
import type { RemoteSearchConfig, SearchConfig } from '../schema/schema.js';

/** Where the search section's variables come from (no server: messages name `search.remote`). */
export type SearchContext = Omit<TemplateContext, 'server' | 'owner'>;

const AT: Segment[] = ['search', 'remote'];

/**
 * Expands variables in the remote providers' `url` and `apiKey`, checks the URLs, and applies
 * the cross-field rules of the search section. Undefined on any error.
 */
export function resolveSearch(
  search: SearchConfig,
  ctx: SearchContext,
  out: Problems,
): SearchConfig | undefined {
  const { strategy, remote } = search;
  if (strategy === 'remote' && remote?.embeddings === undefined && remote?.rerank === undefined) {
    out.error(
      ['search', 'strategy'],
      '"remote" needs search.remote.embeddings or search.remote.rerank (or both)',
    );
    return undefined;
  }
  const remoteRerank = strategy === 'remote' && remote?.rerank !== undefined;
  const rerank = search.rerank && resolveRerank(search.rerank, { ...ctx, remoteRerank }, out);
  const bad = search.rerank !== undefined && rerank === undefined;
  const base = rerank ? { ...search, rerank } : search;
  if (remote === undefined) return bad ? undefined : base;
  if (strategy !== 'remote') {
    out.warn(AT, `ignored: search.strategy is ${quote(strategy)}, not "remote"`);
  }
  const resolved = resolveRemote(remote, ctx, out);
  return bad ? undefined : resolved && { ...base, remote: resolved };
}

function resolveRemote(
  remote: RemoteSearchConfig,
  ctx: SearchContext,
  out: Problems,
): RemoteSearchConfig | undefined {
  const template = { ...ctx, server: 'search', owner: 'search.remote' };
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
