import { createRequire } from 'node:module';
import type { Ajv as AjvType, ValidateFunction } from 'ajv';
import { CarteError } from '../../errors.js';

// ajv is loaded on the first call that validates: loading it eagerly cost every CLI start
// (searches included) about 60 ms. Both packages are CommonJS, so a synchronous require works.
const require = createRequire(import.meta.url);
type AddFormats = (ajv: AjvType) => AjvType;
type AjvClass = new (options: object) => AjvType;
let validators: { draft07: AjvType; draft2020: AjvType } | undefined;

function ajvs(): { draft07: AjvType; draft2020: AjvType } {
  if (!validators) {
    const { Ajv } = require('ajv') as { Ajv: AjvClass };
    const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: AjvClass };
    const addFormats = require('ajv-formats') as { default: AddFormats };
    const options = { strict: false, allErrors: true, validateFormats: true };
    validators = {
      draft07: addFormats.default(new Ajv(options)),
      draft2020: addFormats.default(new Ajv2020(options)),
    };
  }
  return validators;
}

/** Compiled validators by tool content hash; a tool's schema only changes with its hash. */
const cache = new Map<string, ValidateFunction | null>();
const MAX_LISTED = 20;

function compile(hash: string, schema: unknown): ValidateFunction | null {
  if (cache.has(hash)) return cache.get(hash)!;
  const s = schema as Record<string, unknown>;
  const { draft07, draft2020 } = ajvs();
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
