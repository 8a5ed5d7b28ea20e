/** The MCP face: four fixed meta-tools over the gateway, served on stdio (HTTP comes later). */
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { LOCAL_CALLER, type ApprovalSite, type CallerContext, type Gateway } from '../gateway/index.js';
import type { ExposureOptions } from './direct-mode.js';
import { guardStdin } from './guard-transport.js';
import { createMcpServer } from './server.js';

export { createMcpServer } from './server.js';
export { plainCallTool, SERVER_INFO, type Result as ToolResult } from './tool-call.js';
export { META_TOOLS, metaTools, REQUEST_SERVER } from './meta-tools.js';
export type { ExposureOptions } from './direct-mode.js';
export { directNames, isProviderSafe } from './direct-names.js';

/** Serves MCP on this process's stdin/stdout (both protocol eras). Nothing else may write to stdout. */
export function serveMcpStdio(
  gateway: Gateway,
  onError: (err: Error) => void,
  options: { exposure?: ExposureOptions; caller?: CallerContext; agentRequests?: ApprovalSite } = {},
): StdioServerHandle {
  // Refused requests are answered through the transport, so their answers queue with the rest.
  const send = (a: { id: string | number; code: number; message: string }): void => {
    const error = { jsonrpc: '2.0' as const, id: a.id, error: { code: a.code, message: a.message } };
    transport.send(error).catch(onError);
  };
  const transport = new StdioServerTransport(guardStdin(process.stdin, send), process.stdout);
  const caller = options.caller ?? LOCAL_CALLER;
  return serveStdio(() => createMcpServer(gateway, caller, options), {
    legacy: 'serve',
    onerror: onError,
    transport,
  });
}
