// run_code (issue 43): an agent's script runs in the interpreter (src/code), and each tool call
// it makes goes through the gateway's own callTool, with every gate call_tool has (visibility,
// scopes, call classes and confirmation, timeouts, concurrency, audit, usage), linked to the
// script's own audit row. Only the script's answer goes back to the agent.
import { failedRunLogs, runScript } from '../../code/index.js';
import { CarteError } from '../../errors.js';
import type { CallOutcome, CallRequest, SearchResult } from '../shared/types.js';
import { failureWithLogs, scriptAnswer } from './script-answer.js';
import { scriptValue } from './script-values.js';

/** exposure.code's limits (docs/code-mode.md). */
export interface CodeLimits {
  timeoutMs: number;
  memoryMb: number;
  maxCalls: number;
  maxOutputTokens: number;
}

/** The defaults of exposure.code (the config schema repeats them). */
export const CODE_DEFAULTS: CodeLimits = {
  timeoutMs: 30_000,
  memoryMb: 64,
  maxCalls: 200,
  maxOutputTokens: 4_000,
};

/** A run_code request: the client's signal and confirmation, and the limits. */
export interface RunCodeRequest {
  signal?: AbortSignal;
  confirm?: CallRequest['confirm'];
  limits?: Partial<CodeLimits>;
}

/** What a script reaches through the gateway: one call and one search, each already bound to the caller. */
export interface ScriptGateway {
  call(key: string, args: unknown, req: CallRequest): Promise<CallOutcome>;
  search(query: string | string[], limit: number | undefined): Promise<SearchResult[]>;
}

/** search() inside a script: at most this many keys, 8 when it does not say. */
const SEARCH_MAX = 50;

/** Runs `code` and answers as a tool result; a script that fails or hits a limit throws its CarteError. */
export async function runCode(code: unknown, req: RunCodeRequest, gw: ScriptGateway): Promise<CallOutcome> {
  if (typeof code !== 'string' || code.trim() === '')
    throw new CarteError(
      'bad_input',
      'run_code needs "code": the body of an async JavaScript function, as a string',
    );
  const limits = { ...CODE_DEFAULTS, ...req.limits };
  const run = await runScript(
    code,
    {
      call: async (key, args, signal) =>
        scriptValue(await gw.call(key, args, { signal, ...(req.confirm ? { confirm: req.confirm } : {}) })),
      search: async (query, limit) => {
        const results = await gw.search(searchQuery(query), searchLimit(limit));
        return results.map((r) => ({ key: r.key, description: r.summary }));
      },
    },
    { timeoutMs: limits.timeoutMs, memoryBytes: limits.memoryMb * 2 ** 20, maxCalls: limits.maxCalls },
    req.signal,
  ).catch(async (err: unknown) => {
    const logs = failedRunLogs(err);
    throw logs ? await failureWithLogs(err as CarteError, logs, limits.maxOutputTokens) : err;
  });
  return scriptAnswer(run, limits.maxOutputTokens);
}

function searchQuery(query: unknown): string | string[] {
  if (typeof query === 'string') return query;
  if (Array.isArray(query) && query.every((q) => typeof q === 'string')) return query;
  throw new CarteError('bad_input', 'search() needs a query: a string, or an array of strings');
}

function searchLimit(limit: unknown): number | undefined {
  if (limit === undefined || limit === null) return undefined;
  if (typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= SEARCH_MAX) return limit;
  throw new CarteError(
    'bad_input',
    `search()'s limit must be a whole number from 1 to ${SEARCH_MAX}, not ${JSON.stringify(limit)}`,
  );
}
