import { quote } from '../../errors.js';
import { compilePattern } from '../../patterns/index.js';
import { closest } from '../problems/did-you-mean.js';
import { reportIssues } from '../problems/issues.js';
import { describeValue, isRecord, type Problems, type Segment } from '../problems/problems.js';
import { ToolRuleSchema, type ToolRule } from '../schema/schema.js';

const RULE_KEYS = Object.keys(ToolRuleSchema.shape);
/** Everything but `match`, whose checks (a pattern or a list of them, each compiled) are ours. */
const RuleOptionsSchema = ToolRuleSchema.omit({ match: true });

/**
 * Checks `rules`: each rule's keys and values, and every pattern compiled by the same compiler
 * the policy runs. A `server` naming no configured server is only a warning: the rule may be
 * written before the server is added, and `carte remove` must not break the file.
 */
export function validateRules(
  value: unknown,
  serverIds: readonly string[],
  out: Problems,
  root: readonly Segment[] = ['rules'],
): ToolRule[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    out.error([...root], `expected a list of rules, got ${describeValue(value)}`);
    return undefined;
  }
  const rules = value.map((raw, i) => validateRule(raw, [...root, i], serverIds, out));
  return rules.every((r) => r !== undefined) ? rules : undefined;
}

function validateRule(
  raw: unknown,
  path: Segment[],
  serverIds: readonly string[],
  out: Problems,
): ToolRule | undefined {
  if (!isRecord(raw)) {
    out.error(path, `expected an object with "match", got ${describeValue(raw)}`);
    return undefined;
  }
  const { match, ...options } = raw;
  const matchOk = checkMatch(match, [...path, 'match'], out);
  const parsed = RuleOptionsSchema.safeParse(options, { reportInput: true });
  if (!parsed.success) reportIssues(parsed.error.issues, { prefix: path, knownKeys: RULE_KEYS }, out);
  if (!matchOk || !parsed.success) return undefined;
  const rule: ToolRule = { match: match as ToolRule['match'], ...parsed.data };
  const { server } = rule;
  if (server !== undefined && !serverIds.includes(server)) {
    const near = closest(server, serverIds);
    const hint = near === undefined ? 'the rule applies once it is added' : `did you mean ${quote(near)}?`;
    out.warn([...path, 'server'], `no server ${quote(server)} is configured; ${hint}`);
  }
  const setsSomething = [rule.enabled, rule.category, rule.pin, rule.class].some((v) => v !== undefined);
  if (!setsSomething && !rule.tags.length && !rule.useCases?.length)
    out.warn(path, 'sets nothing; add "enabled", "tags", "useCases", "category", "pin" or "class"');
  return rule;
}

/** `match` is one pattern or a non-empty list of them; each must compile. */
function checkMatch(match: unknown, path: Segment[], out: Problems): boolean {
  if (match === undefined) {
    out.error(path, '"match" is required');
    return false;
  }
  if (typeof match === 'string') return checkPattern(match, path, out);
  if (!Array.isArray(match)) {
    out.error(path, `expected a pattern or a list of patterns, got ${describeValue(match)}`);
    return false;
  }
  if (match.length === 0) {
    out.error(path, 'needs at least one pattern');
    return false;
  }
  let ok = true;
  for (const [j, p] of match.entries()) {
    if (typeof p === 'string') ok = checkPattern(p, [...path, j], out) && ok;
    else {
      out.error([...path, j], `expected a string, got ${describeValue(p)}`);
      ok = false;
    }
  }
  return ok;
}

function checkPattern(pattern: string, path: Segment[], out: Problems): boolean {
  try {
    compilePattern(pattern);
    return true;
  } catch (err) {
    out.error(path, err instanceof Error ? err.message : String(err));
    return false;
  }
}
