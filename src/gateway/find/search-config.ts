// A config's search section as gateway search options (the top-level one and each project's).
import type { SearchConfig } from '../../config/index.js';
import { lazyUseLiteEmbedder } from '../../search/index.js';
import type { EmbedProgress, GatewaySearchOptions } from '../shared/search-options.js';
import { llmRerankOptions, remoteSearchOptions } from './remote-providers.js';

/**
 * The USE-Lite embedder only when the section asks for hybrid (its model loads on first use);
 * the remote providers (API keys already read from the environment by the loader) for remote.
 */
export function searchOptionsFromConfig(
  search: SearchConfig,
  onProgress?: (p: EmbedProgress) => void,
): GatewaySearchOptions {
  const { strategy } = search;
  const rerank = llmRerankOptions(search);
  const progress = onProgress ? { onProgress } : {};
  if (strategy === 'lexical') return { strategy, ...rerank };
  if (strategy === 'hybrid') return { strategy, embedder: lazyUseLiteEmbedder(), ...progress, ...rerank };
  return { ...remoteSearchOptions(search), ...progress, ...rerank };
}
