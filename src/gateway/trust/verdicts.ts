// Why the operator sees a tool shown or hidden (`carte tools`), in words.
import { describeRule, type CompiledRules, type ToolVerdict } from '../../policy/index.js';

/** `hidden by rules[0] (match "*delete*")`, `shown: no rule decides`, `server disabled`, ... */
export function explainVerdict(rules: CompiledRules | undefined, v: ToolVerdict): string {
  const by = v.decidedBy !== null && rules ? ` by ${describeRule(rules, v.decidedBy)}` : '';
  if (!v.visible) {
    if (by) return `hidden${by}`;
    return rules?.whitelist
      ? 'hidden: a rule says "enabled: true" and none matches it'
      : 'hidden: its server is not configured';
  }
  const state = v.enabled ? 'shown' : 'shown, not callable: its server is disabled';
  return by ? `${state}${by}` : state;
}
