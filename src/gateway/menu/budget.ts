// Answers that fit a token budget (issue 14): a list answer (search results, a browse page) is
// cut to `maxTokens` of the exact JSON text the MCP face sends. Pure apart from loading the
// tokenizer; see fitToBudget for the order in which detail is given up.
import { CarteError } from '../../errors.js';
import { Fitter } from './budget-fitter.js';
import { loadTokenizer, type Encoding } from './budget-tokens.js';
import type { Fit, FitOptions } from './budget-types.js';

export type { Fit, FitOptions, Omitted, Rendering } from './budget-types.js';

export const BUDGET_DEFAULTS = {
  encoding: 'o200k_base' as Encoding,
  /**
   * The smallest `maxTokens` accepted. An envelope, an `omitted` note and a hint take about 30
   * tokens, so below 50 no list answer says anything useful; such a budget is refused as bad input.
   */
  minTokens: 50,
};

/** Refuses a `maxTokens` that is not a whole number at least `BUDGET_DEFAULTS.minTokens`. */
export function checkMaxTokens(maxTokens: number): void {
  const min = BUDGET_DEFAULTS.minTokens;
  if (!Number.isSafeInteger(maxTokens)) {
    throw new CarteError('bad_input', `maxTokens ${maxTokens} is not a whole number`);
  }
  if (maxTokens < min)
    throw new CarteError('bad_input', `maxTokens ${maxTokens} is below the minimum ${min}`);
}

/**
 * The largest answer whose JSON text fits in `maxTokens`. Detail goes before items:
 * 1. every item at the richest rendering, if that fits (no `omitted`);
 * 2. else, for each leaner rendering L in turn, if every item fits at L: the longest head of the
 *    list kept at the rendering just above L, the tail at L (higher-ranked items stay richer);
 * 3. else the longest head of the list at the leanest rendering, the rest dropped.
 * Every answer returned is counted whole; per-item counts only guide the search (see
 * budget-fitter.ts), so the work stays near `maxTokens` however long the list. An answer that
 * cannot fit even with no item is refused with the tokens it needs.
 */
export async function fitToBudget<T>(opts: FitOptions<T>): Promise<Fit> {
  checkMaxTokens(opts.maxTokens);
  if (opts.levels.length === 0) throw new CarteError('internal', 'fitToBudget needs at least one rendering');
  for (const reserved of [opts.key, 'omitted']) {
    if (Object.hasOwn(opts.envelope, reserved)) {
      throw new CarteError('internal', `fitToBudget: the envelope already has a "${reserved}" key`);
    }
  }
  const tokenizer = await loadTokenizer(opts.encoding ?? BUDGET_DEFAULTS.encoding);
  return new Fitter(opts, tokenizer).fit();
}
