import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as addFormatsModule from 'ajv-formats';
import { CarteError } from '../errors.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = (addFormatsModule as unknown as { default: AddFormats }).default;

const OPTIONS = { strict: false, allErrors: true, validateFormats: true } as const;
const draft07 = addFormats(new Ajv(OPTIONS));
const draft2020 = addFormats(new Ajv2020(OPTIONS));
/** Compiled validators by tool content hash; a tool's schema only changes with its hash. */
const cache = new Map<string, ValidateFunction | null>();
const MAX_LISTED = 20;

function compile(hash: string, schema: unknown): ValidateFunction | null {
  if (cache.has(hash)) return cache.get(hash)!;
  const s = schema as Record<string, unknown>;
  const ajv = typeof s.$schema === 'string' && s.$schema.includes('2020-12') ? draft2020 : draft07;
  let fn: ValidateFunction | null;
  try {
    // A $schema or $id ajv does not know would make compile throw; validate by the body alone.
    const { $schema: _s, $id: _i, ...body } = s;
    fn = ajv.compile(body);
  } catch {
    fn = null; // an invalid upstream schema: leave validation to the upstream
  }
  cache.set(hash, fn);
  return fn;
}

/**
 * Checks tool arguments against its input schema (draft-07 or 2020-12) and lists every
 * violation in one error. Returns false when the schema could not be compiled (not checked).
 */
export function validateArguments(
  key: string,
  hash: string,
  schema: unknown,
  args: Record<string, unknown>,
): boolean {
  if (schema === undefined || schema === null || typeof schema !== 'object') return false;
  const validate = compile(hash, schema);
  if (!validate) return false;
  if (validate(args)) return true;
  const violations = (validate.errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` "${String(e.params.additionalProperty)}"` : '';
    return `${where} ${e.message ?? 'is invalid'}${extra}`;
  });
  const shown = violations.slice(0, MAX_LISTED).join('; ');
  const more = violations.length > MAX_LISTED ? `; and ${violations.length - MAX_LISTED} more` : '';
  throw new CarteError('bad_input', `arguments for "${key}" do not match its input schema: ${shown}${more}`, {
    details: { violations },
  });
}
