// describe_tool under a token budget (issue 14): one tool's definition gives up detail in a fixed
// order until its JSON text fits. Pure apart from loading the tokenizer.
import { CarteError } from '../../errors.js';
import { BUDGET_DEFAULTS, checkMaxTokens } from './budget.js';
import { loadTokenizer, type Encoding } from './budget-tokens.js';
import { summarize } from './summary.js';
import type { ToolDetail } from '../shared/types.js';

/**
 * The renderings of a tool, richest first; each drops more than the one before:
 * - `full`: the definition as stored;
 * - `no-output-schema`: without `outputSchema`, `icons`, `_meta`, and the bookkeeping a call does
 *   not need (`server` and `name`, which the key holds, `firstSeenAt`, `lastSeenAt`);
 * - `no-schema-text`: the input schema without `description`, `title`, `examples`, `$comment`;
 * - `param-types`: the input schema cut to its property names, their `type` and `required`;
 * - `summary`: that, with the description cut to its first sentence;
 * - `bare`: that, without the description and annotations.
 */
export const TOOL_DETAIL_LEVELS = [
  'full',
  'no-output-schema',
  'no-schema-text',
  'param-types',
  'summary',
  'bare',
] as const;
export type ToolDetailLevel = (typeof TOOL_DETAIL_LEVELS)[number];

/** A tool definition at some level: the key, the input schema and the server's status always stay. */
export type ReducedToolDetail = Pick<ToolDetail, 'key' | 'inputSchema' | 'serverStatus'> &
  Partial<ToolDetail>;

/** A tool definition cut to a budget; `omitted` says to what level and how to get all of it. */
export type FittedToolDetail = ReducedToolDetail & { omitted?: { level: ToolDetailLevel; hint: string } };

/** The tool's definition, or the richest reduction of it whose JSON text fits in `maxTokens`. */
export async function fitToolDetail(
  detail: ToolDetail,
  maxTokens: number,
  encoding: Encoding = BUDGET_DEFAULTS.encoding,
): Promise<{ answer: FittedToolDetail; text: string; tokens: number }> {
  checkMaxTokens(maxTokens);
  const tokenizer = await loadTokenizer(encoding);
  const fullText = JSON.stringify(detail);
  const fullTokens = tokenizer.within(fullText, maxTokens);
  if (fullTokens !== false) return { answer: detail, text: fullText, tokens: fullTokens };
  const needed = tokenizer.count(fullText);
  const hint = `ask with maxTokens ${needed} for the full definition`;
  let text = '';
  for (const level of TOOL_DETAIL_LEVELS.slice(1)) {
    const answer: FittedToolDetail = { ...reduceToolDetail(detail, level), omitted: { level, hint } };
    text = JSON.stringify(answer);
    const tokens = tokenizer.within(text, maxTokens);
    if (tokens !== false) return { answer, text, tokens };
  }
  const least = tokenizer.count(text);
  throw new CarteError(
    'bad_input',
    `maxTokens ${maxTokens} is too small for tool "${detail.key}": its shortest definition takes ${least} tokens`,
    { details: { maxTokens, needed: least } },
  );
}

/** What `no-output-schema` drops: what a call does not need (the key holds the server and name). */
const NOT_FOR_CALLS = [
  'outputSchema',
  'icons',
  '_meta',
  'server',
  'name',
  'firstSeenAt',
  'lastSeenAt',
] as const;

/** The tool's definition at `level` (without an `omitted` note). */
export function reduceToolDetail(detail: ToolDetail, level: ToolDetailLevel): ReducedToolDetail {
  const rank = TOOL_DETAIL_LEVELS.indexOf(level);
  if (rank === 0) return detail;
  const rest = omitKeys(detail, NOT_FOR_CALLS);
  if (rank === 1) return rest;
  if (rank === 2) return { ...rest, inputSchema: stripSchemaText(rest.inputSchema) };
  const typed = { ...rest, inputSchema: paramTypes(rest.inputSchema) };
  if (rank === 3) return typed;
  if (rank === 4) return typed.description ? { ...typed, description: summarize(typed.description) } : typed;
  const { description: _d, annotations: _a, ...bare } = typed;
  return bare;
}

/** Keywords that only explain a schema; dropping them leaves what a value must be. */
const TEXT_KEYWORDS = new Set(['description', 'title', 'examples', '$comment']);
/** Keywords whose value is one subschema, a list of them, or a map of names to them. */
const ONE = ['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties'];
const ONE_MORE = ['contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SUBSCHEMA = new Set([...ONE, ...ONE_MORE]);

/**
 * A JSON Schema without its explanatory text, at every depth. Only schema positions are walked,
 * so a property named "description" stays, and `enum`, `const` and `default` values are kept as is.
 */
function stripSchemaText(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (TEXT_KEYWORDS.has(k)) continue;
    if (LIST.includes(k) && Array.isArray(v)) out[k] = v.map(stripSchemaText);
    else if (SUBSCHEMA.has(k)) out[k] = stripSchemaText(v);
    else if (MAP.includes(k) && isObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, stripSchemaText(s)]));
    } else out[k] = v;
  }
  return out;
}

/** An object schema cut to its property names with their `type`, and `required`. */
function paramTypes(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = { type: schema.type ?? 'object' };
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, s]) => [
        name,
        isObject(s) && s.type !== undefined ? { type: s.type } : {},
      ]),
    );
  }
  if (Array.isArray(schema.required)) out.required = schema.required;
  return out;
}

function omitKeys<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Omit<T, K> {
  const drop = new Set<PropertyKey>(keys);
  return Object.fromEntries(Object.entries(value).filter(([k]) => !drop.has(k))) as Omit<T, K>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
