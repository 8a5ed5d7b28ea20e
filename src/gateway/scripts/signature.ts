// Tools as TypeScript for run_code's authors (issue 43 §4): each tool is an overload of the
// script's own `call`, its key a string literal, its arguments and result typed from the input
// and output schemas. A script calls exactly what it reads here.
import { CarteError } from '../../errors.js';
import { checkMaxTokens } from '../menu/budget.js';
import { loadTokenizer } from '../menu/budget-tokens.js';
import { summarize } from '../menu/summary.js';
import type { ToolDetail } from '../shared/types.js';
import { docComment, renderSchema, toTypeName } from './schema-to-ts.js';

/**
 * Renderings of a signature, richest first:
 * - `full`: the tool's description and every property's as comments, the result typed;
 * - `summary`: the description's first sentence only, no property comments;
 * - `bare`: no comments, the result `unknown`.
 */
export const SIGNATURE_LEVELS = ['full', 'summary', 'bare'] as const;
export type SignatureLevel = (typeof SIGNATURE_LEVELS)[number];

/** The part of a tool a signature reads. */
export type SignedTool = Pick<ToolDetail, 'key' | 'description' | 'inputSchema' | 'outputSchema'>;

/** One tool as `declare function call(key: "<key>", args: {...}): Promise<...>;` and the types it names. */
export function toolSignature(tool: SignedTool, level: SignatureLevel = 'full'): string {
  const comments = level === 'full';
  const base = toTypeName(tool.key);
  const args = renderSchema(tool.inputSchema ?? {}, { name: `${base}Args`, comments });
  const result =
    level === 'bare' || tool.outputSchema === undefined
      ? { type: 'unknown', declarations: [] }
      : renderSchema(tool.outputSchema, { name: `${base}Result`, comments });
  const text = level === 'full' ? tool.description : level === 'summary' ? summarize(tool.description) : '';
  const head = text ? docComment(text) : '';
  const call = `declare function call(key: ${JSON.stringify(tool.key)}, args: ${args.type}): Promise<${result.type}>;`;
  return [head + call, ...args.declarations, ...result.declarations].join('\n');
}

/** Signatures fitted to a budget: the level they were cut to, and how many tools were left out. */
export interface FittedSignatures {
  text: string;
  level: SignatureLevel;
  /** Tools left out from the end (every one at `bare` did not fit). */
  left: number;
}

/**
 * The signatures of `tools` as one text within `maxTokens` (o200k_base): every tool at the richest
 * level that fits, else the longest head at `bare`; a comment line then says what was cut.
 */
export async function fitSignatures(
  tools: readonly SignedTool[],
  maxTokens?: number,
): Promise<FittedSignatures> {
  const at = (level: SignatureLevel, list = tools) => list.map((t) => toolSignature(t, level)).join('\n\n');
  if (maxTokens === undefined) return { text: at('full'), level: 'full', left: 0 };
  checkMaxTokens(maxTokens);
  const tokenizer = await loadTokenizer();
  const full = at('full');
  if (tokenizer.within(full, maxTokens) !== false) return { text: full, level: 'full', left: 0 };
  const needed = tokenizer.count(full);
  const note = (level: SignatureLevel, left: number) =>
    `\n// cut to fit maxTokens ${maxTokens}: ${level}${left > 0 ? `, ${left} more tools left out` : ''}; ask with maxTokens ${needed} for all of it`;
  for (const level of SIGNATURE_LEVELS.slice(1)) {
    const text = at(level) + note(level, 0);
    if (tokenizer.within(text, maxTokens) !== false) return { text, level, left: 0 };
  }
  for (let n = tools.length - 1; n >= 1; n--) {
    const text = at('bare', tools.slice(0, n)) + note('bare', tools.length - n);
    if (tokenizer.within(text, maxTokens) !== false) return { text, level: 'bare', left: tools.length - n };
  }
  const shortest = tokenizer.count(at('bare', tools.slice(0, 1)) + note('bare', tools.length - 1));
  throw new CarteError(
    'bad_input',
    `maxTokens ${maxTokens} is too small for ${tools.length === 1 ? `tool "${tools[0]!.key}"` : 'these signatures'}: the shortest takes ${shortest} tokens`,
    { details: { maxTokens, needed: shortest } },
  );
}
