/**
 * The MCP face: four fixed meta-tools over the gateway (with run_code when enabled), and the
 * upstreams' resources, prompts, completions and log messages. This module serves them on stdio
 * (both protocol eras) and relays a stdio session to a running daemon; http/ serves the same server
 * at `/mcp` (Streamable HTTP, and the legacy era's sessions) with `createMcpServer`.
 */
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { LOCAL_CALLER, type ApprovalSite, type CallerContext, type Gateway } from '../gateway/index.js';
import type { ExposureOptions } from './direct-mode.js';
import { guardStdin } from './guard-transport.js';
import { createMcpServer } from './server.js';
import { interceptListens } from './stdio-listen.js';
import { interceptPlainCalls } from './stdio-plain.js';
import { plainCallTool } from './tool-call.js';
import type { Server } from '@modelcontextprotocol/server';
import type { Readable, Writable } from 'node:stream';

export { createMcpServer } from './server.js';
export { listenMessage } from './stdio-listen.js';
export { cannotConfirm, PlainCallsInFlight } from './in-flight.js';
export {
  isObject,
  onlyKeys,
  plainCallMessage,
  plainCallTool,
  SERVER_INFO,
  type Result as ToolResult,
} from './tool-call.js';
export { META_TOOLS, metaTools, REQUEST_SERVER, RUN_CODE } from './meta-tools.js';
export type { ExposureOptions } from './direct-mode.js';
export { directNames, isProviderSafe } from './direct-names.js';
export {
  findDaemon,
  relayStdio,
  RELAY_PATH,
  RELAY_PROJECT_HEADER,
  RELAY_UPGRADE,
  type RelayHandle,
  type RelayOptions,
  type StartInProcess,
} from './relay.js';

/** Serves MCP on this process's stdin/stdout (both protocol eras). Nothing else may write to stdout. */
export function serveMcpStdio(
  gateway: Gateway,
  onError: (err: Error) => void,
  options: {
    exposure?: ExposureOptions;
    caller?: CallerContext;
    agentRequests?: ApprovalSite;
    /** Answer plain 2025-era `call_tool` requests without the SDK's server (default true; src/mcp/stdio-plain.ts). */
    plainCalls?: boolean;
    /** The streams (default this process's stdin and stdout; tests pass their own). */
    stdin?: Readable;
    stdout?: Writable;
  } = {},
): StdioServerHandle {
  // Refused requests are answered through the transport, so their answers queue with the rest.
  const send = (a: { id: string | number; code: number; message: string }): void => {
    const error = { jsonrpc: '2.0' as const, id: a.id, error: { code: a.code, message: a.message } };
    transport.send(error).catch(onError);
  };
  let take: ((message: unknown) => boolean) | undefined; // set below, once the transport is served
  const transport = new StdioServerTransport(
    guardStdin(options.stdin ?? process.stdin, { refuse: send, take: () => take }),
    options.stdout ?? process.stdout,
  );
  const caller = options.caller ?? LOCAL_CALLER;
  let legacy: Server | undefined;
  let modern: Server | undefined;
  const handle = serveStdio(
    ({ era }) => {
      const server = createMcpServer(gateway, caller, { ...options, era });
      if (era === 'legacy') legacy = server;
      else modern = server;
      return server;
    },
    { legacy: 'serve', onerror: onError, transport },
  );
  // A 2026-era listen's resource URIs are subscribed upstream before the SDK acknowledges it.
  const era = () => (legacy ? 'legacy' : modern ? 'modern' : undefined);
  interceptListens(transport, { gateway, caller, era, modern: () => modern }, onError);
  // Direct mode names tools itself; its calls keep the SDK's path.
  if ((options.plainCalls ?? true) && options.exposure?.mode !== 'direct')
    take = interceptPlainCalls(
      transport,
      () => legacy,
      (args, signal) => plainCallTool(gateway, caller, args, signal),
      onError,
    );
  return handle;
}
