/** Policy: who may see and run what, computed once per catalog or config change and applied before ranking. */
export {
  policyTool,
  VisibilityPolicy,
  UNFILED_CATEGORY,
  type PolicyInput,
  type StoredCategory,
  type PolicyServer,
  type PolicyTool,
  type ToolVerdict,
} from './visibility.js';
export { callClass } from './call-class.js';
export {
  compileRules,
  concatRules,
  describeRule,
  evaluateRules,
  explainVisibility,
  rulePatterns,
  type CompiledRule,
  type CompiledRules,
  type RuleDecision,
  type RuleInput,
  type RuleTool,
} from './rules.js';
export { compilePattern, type CompiledPattern } from '../patterns/index.js';
