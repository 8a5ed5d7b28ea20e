import { quote } from '../../errors.js';
import { expandTemplate, type TemplateContext } from '../variables/interpolate.js';
import { formatPath, type Problems, type Segment } from '../problems/problems.js';
import { isHttpUrl } from './resolve-server.js';
import type { LlmRerankConfig } from '../schema/schema-rerank.js';

const HTTP_ONLY = ['url', 'model', 'apiKey'] as const;

/**
 * The cross-field rules of `search.rerank`: openai-chat needs `url` and `model` (their variables
 * expanded, the URL checked); sampling ignores them with a warning; and a search is reranked
 * once, so `search.remote.rerank` under the remote strategy conflicts. Undefined on any error.
 */
export function resolveRerank(
  rerank: LlmRerankConfig,
  ctx: Omit<TemplateContext, 'server' | 'owner'> & { remoteRerank: boolean; at?: readonly Segment[] },
  out: Problems,
): LlmRerankConfig | undefined {
  const section = ctx.at ?? ['search'];
  const AT: Segment[] = [...section, 'rerank'];
  if (ctx.remoteRerank) {
    out.error(
      AT,
      `${formatPath(section)}.remote.rerank is set too; a search is reranked once, so keep one of them`,
    );
    return undefined;
  }
  if (rerank.provider === 'sampling') {
    for (const key of HTTP_ONLY)
      if (rerank[key] !== undefined) out.warn([...AT, key], 'ignored: provider is "sampling"');
    const { url: _u, model: _m, apiKey: _k, ...rest } = rerank;
    return rest;
  }
  const before = out.errors.length;
  for (const key of ['url', 'model'] as const)
    if (rerank[key] === undefined) out.error([...AT, key], `"${key}" is required for provider "openai-chat"`);
  const template = { ...ctx, server: 'search', owner: formatPath(AT) };
  const expand = (raw: string | undefined, key: string): string | undefined => {
    if (raw === undefined) return undefined;
    const r = expandTemplate(raw, template);
    if (!r.ok) out.error([...AT, key], r.message);
    return r.ok ? r.value : undefined;
  };
  const url = expand(rerank.url, 'url');
  const apiKey = expand(rerank.apiKey, 'apiKey');
  // Quote the URL as written: the expanded one may carry a secret from the environment.
  if (url !== undefined && !isHttpUrl(url))
    out.error([...AT, 'url'], `${quote(rerank.url)} is not an http:// or https:// URL`);
  if (out.errors.length > before) return undefined;
  return { ...rerank, url, ...(apiKey === undefined ? {} : { apiKey }) };
}
