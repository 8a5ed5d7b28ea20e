// What run_code sends back into the agent's context: the returned value (and the logs, if any) as
// one JSON text, cut to `maxOutputTokens` with a note that says so (issue 43). No structuredContent: a
// client that shows both would put the answer in the context twice, the cost run_code removes.
import type { FailedRunLogs, ScriptResult } from '../../code/index.js';
import { CarteError } from '../../errors.js';
import { loadTokenizer } from '../menu/budget-tokens.js';
import type { CallOutcome } from '../shared/types.js';

/** No o200k_base token is longer than this (its longest are runs of 128 spaces or dashes). */
const MAX_CHARS_PER_TOKEN = 128;

/** Tokens kept free for the note that says the answer was cut. */
const NOTE_TOKENS = 60;

/**
 * The answer's text: the returned value's JSON alone when nothing was logged (`null` when it
 * returned nothing), else `{"result": ..., "logs": [...]}` (and `logsDropped`). The envelope
 * costs five tokens an answer without logs does not need.
 */
export function answerText(run: ScriptResult): string {
  if (run.logs.length === 0 && run.droppedLogs === 0) return run.json ?? 'null';
  const logs = run.logs.length > 0 ? `,"logs":${JSON.stringify(run.logs)}` : '';
  const dropped = run.droppedLogs > 0 ? `,"logsDropped":${run.droppedLogs}` : '';
  return `{"result":${run.json ?? 'null'}${logs}${dropped}}`;
}

/** The tool result, its text within `maxTokens` (o200k_base). */
export async function scriptAnswer(run: ScriptResult, maxTokens: number): Promise<CallOutcome> {
  return { content: [{ type: 'text', text: await within(answerText(run), maxTokens) }] };
}

/**
 * A failed run's error with what it logged: its message, then `{"logs": [...]}` on the next line,
 * cut like an answer. The agent debugging a script needs its console.log lines most when it fails.
 */
export async function failureWithLogs(
  err: CarteError,
  run: FailedRunLogs,
  maxTokens: number,
): Promise<CarteError> {
  const dropped = run.droppedLogs > 0 ? `,"logsDropped":${run.droppedLogs}` : '';
  const text = `${err.message}\n{"logs":${JSON.stringify(run.logs)}${dropped}}`;
  return new CarteError(err.code, await within(text, maxTokens), {
    cause: err,
    ...(err.details ? { details: err.details } : {}),
  });
}

/** `text`, or its longest head within `maxTokens` with a note saying it was cut. */
async function within(text: string, maxTokens: number): Promise<string> {
  const tokenizer = await loadTokenizer();
  // A token is at least one character, so a text no longer than the limit fits uncounted; one
  // over MAX_CHARS_PER_TOKEN characters a token cannot fit, and is not counted whole.
  const fits =
    text.length <= maxTokens ||
    (text.length <= maxTokens * MAX_CHARS_PER_TOKEN && tokenizer.within(text, maxTokens) !== false);
  if (fits) return text;
  const keep = longestPrefix(text, maxTokens - NOTE_TOKENS, (t, n) => tokenizer.within(t, n) !== false);
  const note = `\n[cut: the answer is ${text.length} characters, past exposure.code.maxOutputTokens (${maxTokens} tokens); this is its first ${keep} characters. Return less from the script: filter, count or summarise there.]`;
  return text.slice(0, keep) + note;
}

/** The longest prefix length of `text` that fits `limit` tokens (bisection; counting stops past the limit). */
function longestPrefix(text: string, limit: number, fits: (t: string, n: number) => boolean): number {
  let lo = 0;
  let hi = Math.min(text.length, Math.max(limit, 1) * MAX_CHARS_PER_TOKEN);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(text.slice(0, mid), limit)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
