// The search behind fitToBudget: the largest shape (how many items, at which renderings) whose
// text fits. Exact counts of whole answers decide; counts of single items only guide the search,
// so a 7,000-item list costs about what the few thousand tokens that can be shown cost.
import { CarteError } from '../../errors.js';
import type { Fit, FitOptions, Omitted } from './budget-types.js';
import type { Tokenizer } from './budget-tokens.js';

/**
 * How many tokens an answer's text may take below its parts counted one by one: per item, and
 * once for the joins of envelope, list and note. Measured on the big bench catalog: between 0
 * and 1 per item (a comma merges with the braces beside it). The slack only bounds how far ahead
 * items are counted; no answer is ever returned on an estimate.
 */
const SLACK = { perItem: 4, fixed: 8 };

/** A candidate: the first `head` items at rendering `level - 1`, the rest of the first `shown` at `level`. */
interface Shape {
  shown: number;
  level: number;
  head: number;
}

export class Fitter<T> {
  private readonly total: number;
  private readonly max: number;
  /** Item texts per rendering, made on first use. */
  private readonly texts: string[][];
  /** `sums[level][n]`: the tokens of the first n items at `level`, each counted alone. */
  private readonly sums: number[][];
  /** Texts that fit, with their exact counts, by shape. */
  private readonly fitted = new Map<string, { text: string; tokens: number }>();
  private readonly prefix: string;
  /** Tokens of the envelope with an empty list. */
  private readonly base: number;
  /** Tokens of `,"omitted":{...}` by its text. */
  private readonly notes = new Map<string, number>();

  constructor(
    private readonly opts: FitOptions<T>,
    private readonly tokenizer: Tokenizer,
  ) {
    this.total = opts.items.length;
    this.max = opts.maxTokens;
    this.texts = opts.levels.map(() => []);
    this.sums = opts.levels.map(() => [0]);
    const envelope = JSON.stringify(opts.envelope);
    this.prefix = `${envelope === '{}' ? '{' : `${envelope.slice(0, -1)},`}${JSON.stringify(opts.key)}:[`;
    this.base = tokenizer.count(`${this.prefix}]}`);
  }

  fit(): Fit {
    const leanest = this.opts.levels.length - 1;
    const all = (level: number, head = 0): Shape => ({ shown: this.total, level, head });
    for (let level = 0; level <= leanest; level++) {
      const drop = (n: number): Shape => ({ shown: n, level, head: 0 });
      const over = this.firstOver(this.total, drop);
      if (over > this.total && this.fits(all(level))) {
        if (level === 0) return this.finish(all(0));
        // Every item fits at `level`, none richer: keep the longest head one rendering up.
        const mixed = (head: number): Shape => all(level, head);
        const hi = Math.min(this.firstOver(this.total, mixed), this.total);
        return this.finish(mixed(this.largest(0, hi, mixed)));
      }
      if (level === leanest) {
        if (!this.fits(drop(0))) throw this.tooSmall(drop(0));
        return this.finish(drop(this.largest(0, Math.min(over, this.total), drop)));
      }
    }
    throw new CarteError('internal', 'fitToBudget: no rendering was tried');
  }

  /** The first x in 1..hi whose shape is surely over budget by its items' counts, else hi + 1. */
  private firstOver(hi: number, shapeOf: (x: number) => Shape): number {
    for (let x = 1; x <= hi; x++) {
      const shape = shapeOf(x);
      if (this.estimate(shape) - SLACK.perItem * shape.shown - SLACK.fixed > this.max) return x;
    }
    return hi + 1;
  }

  /**
   * The largest x in [lo, hi) whose shape fits, given that lo fits and hi does not: an
   * interpolation search on the items' counts, corrected by each exact count, that falls back to
   * bisection whenever a probe fails to halve the range (so at most about 2 log2(hi - lo) probes).
   */
  private largest(lo: number, hi: number, shapeOf: (x: number) => Shape): number {
    let drift = 0; // tokens per item the whole text takes beyond its estimate
    let bisect = false;
    while (hi - lo > 1) {
      const width = hi - lo;
      const x = bisect
        ? lo + Math.floor(width / 2)
        : this.guess(lo, hi, (y) => this.predict(shapeOf(y), drift));
      const shape = shapeOf(x);
      const tokens = this.within(shape);
      const perItem = (n: number) => (n - this.estimate(shape)) / Math.max(1, shape.shown);
      if (tokens === false) {
        hi = x;
        drift = Math.max(drift, perItem(this.max + 1));
      } else {
        lo = x;
        drift = perItem(tokens);
      }
      bisect = hi - lo > width / 2;
    }
    return lo;
  }

  /** The largest x in (lo, hi) predicted to fit, or lo + 1 when none is. */
  private guess(lo: number, hi: number, predict: (x: number) => number): number {
    let a = lo + 1;
    let b = hi - 1;
    while (a < b) {
      const mid = Math.ceil((a + b) / 2);
      if (predict(mid) <= this.max) a = mid;
      else b = mid - 1;
    }
    return a;
  }

  private predict(shape: Shape, drift: number): number {
    return this.estimate(shape) + drift * shape.shown;
  }

  /** The shape's tokens by its parts counted alone: envelope, items and note. */
  private estimate(shape: Shape): number {
    const { shown, level, head } = shape;
    const richer = head > 0 ? this.sum(level - 1, head) : 0;
    return this.base + this.noteTokens(shape) + richer + this.sum(level, shown) - this.sum(level, head);
  }

  private noteTokens(shape: Shape): number {
    const note = this.note(shape);
    if (note === '') return 0;
    let tokens = this.notes.get(note);
    if (tokens === undefined) this.notes.set(note, (tokens = this.tokenizer.count(note)));
    return tokens;
  }

  private sum(level: number, n: number): number {
    const sums = this.sums[level]!;
    for (let i = sums.length - 1; i < n; i++)
      sums.push(sums[i]! + this.tokenizer.count(this.itemText(level, i)));
    return sums[n]!;
  }

  private fits(shape: Shape): boolean {
    return this.within(shape) !== false;
  }

  private within(shape: Shape): number | false {
    const text = this.text(shape);
    const tokens = this.tokenizer.within(text, this.max);
    if (tokens !== false) this.fitted.set(keyOf(shape), { text, tokens });
    return tokens;
  }

  /** The exact text of a shape from cached item texts: equal to `JSON.stringify` of its answer. */
  private text(shape: Shape): string {
    const parts: string[] = [];
    for (let i = 0; i < shape.shown; i++) {
      parts.push(this.itemText(i < shape.head ? shape.level - 1 : shape.level, i));
    }
    return `${this.prefix}${parts.join(',')}]${this.note(shape)}}`;
  }

  /** The `omitted` member's text, with its leading comma, or '' when nothing was left out. */
  private note(shape: Shape): string {
    const omitted = this.omitted(shape);
    return omitted ? `,"omitted":${JSON.stringify(omitted)}` : '';
  }

  private itemText(level: number, i: number): string {
    const cache = this.texts[level]!;
    return (cache[i] ??= JSON.stringify(this.rendered(level, i)) ?? 'null');
  }

  private rendered(level: number, i: number): unknown {
    return this.opts.levels[level]!.render(this.opts.items[i]!);
  }

  private omitted(shape: Shape): Omitted | undefined {
    const count = this.total - shape.shown;
    const degraded = shape.shown > shape.head && shape.level > 0;
    if (count === 0 && !degraded) return undefined;
    const level = degraded ? { level: this.opts.levels[shape.level]!.name } : {};
    const { hint } = this.opts;
    return {
      count,
      ...level,
      hint: typeof hint === 'string' ? hint : hint({ shown: shape.shown, omitted: count, ...level }),
    };
  }

  private finish(shape: Shape): Fit {
    const items = Array.from({ length: shape.shown }, (_, i) =>
      this.rendered(i < shape.head ? shape.level - 1 : shape.level, i),
    );
    const omitted = this.omitted(shape);
    const answer = { ...this.opts.envelope, [this.opts.key]: items, ...(omitted ? { omitted } : {}) };
    const text = JSON.stringify(answer);
    const probe = this.fitted.get(keyOf(shape));
    const tokens = probe?.text === text ? probe.tokens : this.tokenizer.count(text);
    if (tokens > this.max) {
      throw new CarteError('internal', `fitToBudget: the answer took ${tokens} tokens of ${this.max}`);
    }
    return { answer, text, tokens, shown: shape.shown, ...(omitted ? { omitted } : {}) };
  }

  private tooSmall(shape: Shape): CarteError {
    const needed = this.tokenizer.count(this.text(shape));
    return new CarteError(
      'bad_input',
      `maxTokens ${this.max} is too small for this answer: it needs at least ${needed}`,
      { details: { maxTokens: this.max, needed } },
    );
  }
}

const keyOf = (s: Shape): string => `${s.shown}/${s.level}/${s.head}`;
