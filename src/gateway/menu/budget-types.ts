// The shapes of a budgeted answer, shared by budget.ts (fitToBudget) and budget-fitter.ts (the
// search behind it), below both so neither imports the other.
import type { Encoding } from './budget-tokens.js';

/** One way to show an item, from the richest (full) to the leanest (key only). */
export interface Rendering<T> {
  /** Named in `omitted.level` when the answer uses it (e.g. 'full', 'summary', 'key'). */
  name: string;
  render: (item: T) => unknown;
}

/** What an answer left out. Present only when something was. */
export interface Omitted {
  /** Items dropped from the end of the list. */
  count: number;
  /** The leanest rendering among the shown items, when some are below the richest. */
  level?: string;
  /** How to get the rest (the caller's words: "pass cursor X", "raise maxTokens"). */
  hint: string;
}

export interface FitOptions<T> {
  items: readonly T[];
  /** Renderings from the richest to the leanest; at least one. */
  levels: readonly Rendering<T>[];
  /** The rest of the answer object; its keys come first in the text. */
  envelope: Record<string, unknown>;
  /** The envelope key that holds the list (`results`, `tools`). */
  key: string;
  maxTokens: number;
  /**
   * The hint for `omitted`, given what is shown (e.g. a cursor past the last shown item). A
   * function is called for every candidate answer weighed, so it should be cheap.
   */
  hint: string | ((fit: { shown: number; omitted: number; level?: string }) => string);
  encoding?: Encoding;
}

/** The answer that fits, and its exact text: `JSON.stringify(answer)`. */
export interface Fit {
  answer: Record<string, unknown>;
  text: string;
  tokens: number;
  /** Items shown (the first `shown` of the list). */
  shown: number;
  omitted?: Omitted;
}
