// What a tool call looks like from inside a run_code script (issue 43): the value `call` resolves
// with, or the Error it throws.
import { ScriptToolError } from '../../code/index.js';
import type { CallOutcome } from '../shared/types.js';

/** How a JSON text can begin (RFC 8259: whitespace, then a value). */
const JSON_START = /^[ \t\n\r]*[[{"\-0-9tfn]/;

/**
 * The tool's `structuredContent` when it has one; else its text, parsed as JSON when it parses,
 * else the text itself; a result with no text gives its content blocks. `isError` throws.
 */
export function scriptValue(outcome: CallOutcome): unknown {
  const content = Array.isArray(outcome.content)
    ? (outcome.content as { type?: unknown; text?: unknown }[])
    : [];
  const texts = content
    .filter((c) => c.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text as string);
  const text = texts.join('\n');
  if (outcome.isError === true) throw new ScriptToolError(text || 'the tool reported an error without text');
  const structured = outcome.structuredContent;
  if (typeof structured === 'object' && structured !== null) return structured;
  if (texts.length === 0) return content;
  if (!JSON_START.test(text)) return text; // not JSON: skip the parse and its exception
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
