import type { ToolRow } from '../../store/index.js';
import type { ServerSummary, ToolDetail } from '../shared/types.js';

/** Everything stored about one tool, as `describe_tool` answers it. */
export function toolDetail(t: ToolRow, serverStatus: ServerSummary['status']): ToolDetail {
  return {
    key: t.key,
    server: t.serverId,
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema ?? { type: 'object' },
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    ...(t.annotations ? { annotations: t.annotations } : {}),
    ...(t.execution ? { execution: t.execution } : {}),
    ...(t.icons ? { icons: t.icons } : {}),
    ...(t.meta ? { _meta: t.meta } : {}),
    ...(t.schemaTruncatedFrom ? { schemaTruncatedFromBytes: t.schemaTruncatedFrom } : {}),
    serverStatus,
    firstSeenAt: t.firstSeenAt,
    lastSeenAt: t.lastSeenAt,
  };
}
