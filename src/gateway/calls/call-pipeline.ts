// One tool call after the caller's view has found the tool: server enabled, arguments checked
// against the schema, the call-class gate, then the upstream call with progress and cancellation.
import { callClass } from '../../policy/index.js';
import type { ToolRow } from '../../store/index.js';
import { checkArgumentsObject, disabled, isRepeatable } from './call-checks.js';
import { gateCall } from './call-gate.js';
import type { GatewayProject } from '../access/projects.js';
import type { CallOutcome, CallRequest, GatewayServer } from '../shared/types.js';
import type { Upstreams } from './upstreams.js';
import { validateArguments } from './validate.js';
import type { CallClass } from '../../config/index.js';
import type { CallerContext } from '../access/context.js';

export interface CallPlan {
  tool: ToolRow;
  server: GatewayServer;
  project: GatewayProject;
  /** A rule's call class for the tool in the caller's view, if any. */
  ruleClass: CallClass | undefined;
  /** Who calls: a per-user server's call runs with their own sign-in (per-user.ts). */
  caller: CallerContext;
}

export async function runToolCall(
  upstreams: Upstreams,
  plan: CallPlan,
  args: unknown,
  req: CallRequest,
): Promise<CallOutcome> {
  const { tool: t, server: s } = plan;
  if (!s.enabled) throw disabled(s.id);
  const argv = checkArgumentsObject(t.key, args);
  if (!t.schemaTruncatedFrom) validateArguments(t.key, t.contentHash, t.inputSchema, argv);
  await gateCall(plan.project, t.key, callClass(t.annotations, s.trusted, plan.ruleClass), req.confirm);
  const on = { signal: req.signal, log: req.log, subject: plan.caller.subject };
  return upstreams.withCall(s, on, (conn, logMeta) =>
    conn.callTool(t.name, argv, {
      timeoutMs: s.timeoutMs,
      ...(req.signal ? { signal: req.signal } : {}),
      // Always ask for progress: an upstream that reports it keeps its call alive past timeoutMs.
      onProgress: req.onProgress ?? (() => undefined),
      idempotent: isRepeatable(t.annotations),
      ...(req.elicit ? { elicit: req.elicit } : {}),
      ...(req.meta || req.log ? { meta: { ...req.meta, ...logMeta } } : {}),
    }),
  );
}
