import { CarteError, nestingDepth } from '../../errors.js';

/** The server_disabled error, with the fix. */
export function disabled(id: string): CarteError {
  return new CarteError(
    'server_disabled',
    `server "${id}" is disabled in the config; set enabled: true to use it`,
  );
}

/** Deepest nesting accepted in call arguments: far beyond real tool schemas, far below stack limits. */
const MAX_ARGUMENT_DEPTH = 100;

/** Call arguments must be a JSON object of sane depth; null and undefined mean {}. */
export function checkArgumentsObject(key: string, args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args === 'object' && !Array.isArray(args)) {
    if (nestingDepth(args, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) {
      throw new CarteError(
        'bad_input',
        `arguments for "${key}" nest deeper than ${MAX_ARGUMENT_DEPTH} levels`,
      );
    }
    return args as Record<string, unknown>;
  }
  throw new CarteError(
    'bad_input',
    `arguments for "${key}" must be a JSON object, not ${Array.isArray(args) ? 'an array' : typeof args}`,
  );
}

/** Whether a call may be repeated after a lost session: the tool says it is read-only or idempotent. */
export function isRepeatable(annotations: unknown): boolean {
  const a = annotations as { readOnlyHint?: unknown; idempotentHint?: unknown } | undefined;
  return a?.readOnlyHint === true || a?.idempotentHint === true;
}
