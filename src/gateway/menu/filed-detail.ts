// A tool's detail with what the policy decides about it: how a call is classed (read, write,
// destructive: the web page's badges) and where it is filed. Rules apply on top of annotations.
import type { CallClass } from '../../config/index.js';
import { callClass, UNFILED_CATEGORY, type ToolVerdict } from '../../policy/index.js';
import type { ToolDetail } from '../shared/types.js';

/**
 * `describe_tool`'s answer plus the call class, category, tags and the use cases rules attach
 * (REST `GET /api/v1/tools/{server}/{tool}`).
 */
export interface FiledToolDetail extends ToolDetail {
  class: CallClass;
  category: string;
  tags: string[];
  /** Only when a rule gives it any. */
  useCases?: string[];
  /** The tool as run_code calls it: a TypeScript `call` overload (set by the gateway). */
  signature?: string;
}

export function filedDetail(
  detail: ToolDetail,
  verdict: ToolVerdict | undefined,
  trusted: boolean | undefined,
): FiledToolDetail {
  return {
    ...detail,
    class: callClass(detail.annotations, trusted, verdict?.ruleClass),
    category: verdict?.category ?? UNFILED_CATEGORY,
    tags: [...(verdict?.tags ?? [])],
    ...(verdict?.useCases?.length ? { useCases: [...verdict.useCases] } : {}),
  };
}
