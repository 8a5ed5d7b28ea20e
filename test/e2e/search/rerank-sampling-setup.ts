// Shared by the search.rerank e2e tests: config text -> gateway over a real SQLite store ->
// Carte's MCP face -> a real v2 MCP client whose sampling handler is scripted, on either
// protocol era. No upstream starts in-process: the catalog is written the way a sync writes it.
import { afterEach, expect } from 'vitest';
import { Client, InMemoryTransport, type CreateMessageRequest } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { applyDiscovery, type ListedTool } from '../../../src/catalog/index.js';
import { parseConfigText } from '../../../src/config/index.js';
import {
  LOCAL_CALLER as ME,
  llmRerankOptions,
  type GatewaySearchOptions,
  type SearchMeta,
} from '../../../src/gateway/index.js';
import { createMcpServer } from '../../../src/mcp/index.js';
import { harness, memoryLogger, stdioServer, tempDir } from '../helpers.js';

const tool = (name: string, description: string): ListedTool => ({
  name,
  description,
  inputSchema: { type: 'object' },
});
export const CATALOG: Record<string, ListedTool[]> = {
  files: [
    tool('read_file', 'Read the contents of a file from disk.'),
    tool('write_file', 'Write text to a file on disk.'),
    tool('delete_file', 'Delete a file from disk.'),
  ],
  web: [tool('fetch', 'Fetch a URL or a remote file and return its text.')],
};
// Generous deadlines (a loaded machine must not turn an answer into a timeout), short only where
// the test is about the deadline.
export const TIMEOUT_MS = 5000;
export const SHORT_TIMEOUT_MS = 300;
export const SAMPLING = `    provider: sampling\n    timeoutMs: ${TIMEOUT_MS}\n`;
export const SHORT = `    provider: sampling\n    timeoutMs: ${SHORT_TIMEOUT_MS}\n`;
export const MODERN = '2026-07-28';

/** Gateway search options from config text, exactly as the CLI builds them for a lexical strategy. */
export function optionsFrom(rerank: string): GatewaySearchOptions {
  const r = parseConfigText(`search:\n  rerank:\n${rerank}`, { path: '/cfg/carte.yaml', env: {} });
  expect(r.errors).toEqual([]);
  return { strategy: 'lexical', ...llmRerankOptions(r.config!.search) };
}

export const used = (provider = 'sampling'): SearchMeta => ({
  strategy: 'lexical',
  fallback: false,
  steps: [{ provider, fallback: false }],
});
export const fellBack = (reason: string, provider = 'sampling'): SearchMeta => ({
  strategy: 'lexical',
  fallback: true,
  steps: [{ provider, fallback: true, reason: `remote provider "${provider}" ${reason}` }],
});
export const unranked: SearchMeta = { strategy: 'lexical', fallback: false, steps: [] };

/** What the scripted model does: answer (maybe late), never answer, or fail. */
export type Sampled = { text: string; delayMs?: number } | 'hang' | Error;

export type Raw = { structuredContent?: unknown; _meta?: unknown; resultType?: string; [k: string]: unknown };
/** The keys and search metadata of a search_tools result. */
export function hitsOf(r: Raw): { keys: string[]; meta: SearchMeta | undefined } {
  const { results } = r.structuredContent as { results: { key: string }[] };
  return { keys: results.map((x) => x.key), meta: (r._meta as Record<string, SearchMeta>)['carte/search'] };
}

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

export interface ConnectOptions {
  /** `modern` pins the client to 2026-07-28; the server side is served as `carte serve` does. */
  era?: 'legacy' | 'modern';
  /** Modern era: no auto-fulfilment, so input_required results come back to the test. */
  manual?: boolean;
}

/** A gateway with the catalog, its MCP face, and a client; `sampling` scripts the client's model. */
export async function connect(
  options: GatewaySearchOptions,
  sampling?: (req: CreateMessageRequest) => Sampled,
  how: ConnectOptions = {},
) {
  const dir = tempDir();
  const logger = memoryLogger();
  const servers = Object.keys(CATALOG).map((id) => stdioServer(id, ['never-started.js']));
  const h = await harness(servers, dir.dir, { logger, search: options }, async (store) => {
    for (const [id, tools] of Object.entries(CATALOG)) await applyDiscovery(store, id, { tools });
  });
  const asked: CreateMessageRequest[] = [];
  const cancelled: string[] = [];
  const modern = how.era === 'modern';
  const client = new Client(
    { name: 'scripted', version: '0' },
    {
      ...(sampling ? { capabilities: { sampling: {} } } : {}),
      ...(modern ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
      ...(how.manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  if (sampling)
    client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      asked.push(request);
      const answer = sampling(request);
      if (answer instanceof Error) throw answer;
      if (answer === 'hang')
        return new Promise((_, reject) =>
          ctx.mcpReq.signal.addEventListener('abort', () => {
            cancelled.push(String(ctx.mcpReq.signal.reason));
            reject(new Error('cancelled'));
          }),
        );
      // A slow model that ignores cancellation and answers anyway, late.
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      return { model: 'scripted-1', role: 'assistant', content: { type: 'text', text: answer.text } };
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // The modern era needs the SDK's era-deciding entry (as `carte serve` uses on stdio).
  const served = modern
    ? serveStdio(() => createMcpServer(h.gateway), { transport: serverSide, legacy: 'reject' })
    : undefined;
  if (!modern) await createMcpServer(h.gateway).connect(serverSide);
  await client.connect(clientSide);
  expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
  open.push({
    close: async () => {
      await client.close();
      await served?.close();
      await h.close();
      dir.cleanup();
    },
  });
  /** One tools/call of search_tools; `extra` params carry a retry's fields; manual mode returns input_required as is. */
  const call = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    client.request(
      { method: 'tools/call', params: { name: 'search_tools', arguments: args, ...extra } },
      how.manual ? { allowInputRequired: true } : {},
    ) as Promise<Raw>;
  const search = async (query: string | string[], limit = 3) => hitsOf(await call({ query, limit }));
  const lexical = (query: string | string[], limit = 3) =>
    h.gateway.searchTools(ME, query, { limit }).map((r) => r.key);
  return { search, call, lexical, asked, cancelled, logger, h };
}

/** The warnings a gateway logged. */
export const warnings = (logger: { lines: string[] }) => logger.lines.filter((l) => l.startsWith('warn:'));
