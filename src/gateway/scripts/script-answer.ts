// What run_code sends back into the agent's context: the returned value and the logs as one JSON
// text, cut to `maxOutputTokens` with a note that says so (issue 43). No structuredContent: a
// client that shows both would put the answer in the context twice, the cost run_code removes.
import type { ScriptResult } from '../../code/index.js';
import { loadTokenizer } from '../menu/budget-tokens.js';
import type { CallOutcome } from '../shared/types.js';

/** No o200k_base token is longer than this (its longest are runs of 128 spaces or dashes). */
const MAX_CHARS_PER_TOKEN = 128;

/** Tokens kept free for the note that says the answer was cut. */
const NOTE_TOKENS = 60;

/** The answer's text: `{"result": ..., "logs": [...]}`, logs only when there are some. */
export function answerText(run: ScriptResult): string {
  const logs = run.logs.length > 0 ? `,"logs":${JSON.stringify(run.logs)}` : '';
  const dropped = run.droppedLogs > 0 ? `,"logsDropped":${run.droppedLogs}` : '';
  return `{"result":${run.json ?? 'null'}${logs}${dropped}}`;
}

/** The tool result, its text within `maxTokens` (o200k_base). */
export async function scriptAnswer(run: ScriptResult, maxTokens: number): Promise<CallOutcome> {
  const text = answerText(run);
  const tokenizer = await loadTokenizer();
  // A token is at least one character, so a text no longer than the limit fits uncounted; one
  // over MAX_CHARS_PER_TOKEN characters a token cannot fit, and is not counted whole.
  const fits =
    text.length <= maxTokens ||
    (text.length <= maxTokens * MAX_CHARS_PER_TOKEN && tokenizer.within(text, maxTokens) !== false);
  if (fits) return { content: [{ type: 'text', text }] };
  const keep = longestPrefix(text, maxTokens - NOTE_TOKENS, (t, n) => tokenizer.within(t, n) !== false);
  const note = `\n[cut: the answer is ${text.length} characters, past exposure.code.maxOutputTokens (${maxTokens} tokens); this is its first ${keep} characters. Return less from the script: filter, count or summarise there.]`;
  return { content: [{ type: 'text', text: text.slice(0, keep) + note }] };
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
