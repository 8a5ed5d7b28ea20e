/** The MCP face: four fixed meta-tools over the gateway, served on stdio (HTTP comes later). */
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { Gateway } from '../gateway/index.js';
import { createMcpServer } from './server.js';

export { createMcpServer } from './server.js';
export { META_TOOLS } from './meta-tools.js';

/** Serves MCP on this process's stdin/stdout (both protocol eras). Nothing else may write to stdout. */
export function serveMcpStdio(gateway: Gateway, onError: (err: Error) => void): StdioServerHandle {
  return serveStdio(() => createMcpServer(gateway), { legacy: 'serve', onerror: onError });
}
