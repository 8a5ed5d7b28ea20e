import type { z } from 'zod';
import { didYouMean } from './did-you-mean.js';
import { describeKind, describeValue, listChoices, type Problems, type Segment } from './problems.js';

type Issue = z.core.$ZodIssue;

export interface IssueContext {
  /** Where the validated object sits in the file. */
  prefix: Segment[];
  /** The keys the object allows, for "did you mean". */
  knownKeys: readonly string[];
  /** The keys a nested object allows, by its path inside the validated one (default: knownKeys). */
  keysAt?: (path: readonly Segment[]) => readonly string[] | undefined;
  /** A better message for an unknown key (e.g. a remote-only key on a stdio server). */
  explainKey?: (key: string) => string | undefined;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

/** Values under these keys may be secrets: messages name their kind, never the value. */
const SECRET_KEYS = new Set(['env', 'headers', 'apiKey']);

/** Adds one problem per zod issue, in the house wording (`expected a string, got 42`). */
export function reportIssues(issues: readonly Issue[], ctx: IssueContext, out: Problems): void {
  for (const issue of issues) {
    const path = [...ctx.prefix, ...(issue.path as Segment[])];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const message =
          ctx.explainKey?.(key) ??
          `unknown key ${JSON.stringify(key)}${didYouMean(key, ctx.keysAt?.(issue.path as Segment[]) ?? ctx.knownKeys)}`;
        out.error([...path, key], message);
      }
      continue;
    }
    const secret = issue.path.some((s) => typeof s === 'string' && SECRET_KEYS.has(s));
    out.error(path, messageFor(issue, secret));
  }
}

function messageFor(issue: Issue, secret: boolean): string {
  const got = secret ? describeKind(issue.input) : describeValue(issue.input);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return `${JSON.stringify(issue.path.at(-1))} is required`;
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${got}`;
    }
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}, got ${got}`;
    case 'too_big':
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}, got ${got}`;
    case 'invalid_value': {
      const hint = typeof issue.input === 'string' ? didYouMean(issue.input, issue.values.map(String)) : '';
      return `expected ${listChoices(issue.values)}, got ${got}${hint}`;
    }
    default:
      return `invalid value ${got}: ${issue.message}`;
  }
}
