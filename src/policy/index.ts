/** Policy: who may see and run what, computed once per catalog or config change and applied before ranking. */
export {
  policyTool,
  VisibilityPolicy,
  type PolicyServer,
  type PolicyTool,
  type ToolVerdict,
} from './visibility.js';
