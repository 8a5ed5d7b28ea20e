import type { CallerContext, Gateway, Store } from '../../gateway/index.js';

/** What the HTTP face needs from the process: the one gateway facade, the store, and where the config lives. */
export interface HttpDeps {
  gateway: Gateway;
  store: Store;
  /** The config file approvals write to (absent for the bundled demo, which cannot take approvals). */
  configPath?: string;
  /** What `${env:NAME}` reads when an approval reloads the config (the server entry passes process.env; absent: none set). */
  env?: Record<string, string | undefined>;
  /** What `${dataDir}` expands to in the config (approvals reload it). */
  dataDir?: string;
  /** The project anonymous requests act in; absent means every request needs a token (default deny). */
  anonymousProject?: string;
  /** Where the page's built assets are (default: the package's dist/web). */
  webRoot?: string;
}

/** Hono's environment for every Carte route: the auth middleware sets `caller` before a protected route runs. */
export interface HttpEnv {
  Variables: {
    caller: CallerContext;
    requestId: string;
  };
}

/** What the checks read of a request's headers: a web `Headers`, or node's (mcp-lane.ts). */
export type HeaderSource = Pick<Headers, 'get'>;

/** What a request to /mcp needs: its headers, its body already parsed, and its caller. */
export interface McpRequest {
  headers: HeaderSource;
  /** The request as the SDK takes it: asked for only when the SDK answers (the node lane makes one then). */
  request: () => Request;
  parsedBody?: unknown;
  caller: CallerContext;
  /**
   * A signal aborted when the client goes away (asked for only by a plain call; nothing else may
   * abort it): one per connection (plain-call.ts, `connectionSignal`).
   */
  disconnected: () => AbortSignal;
}
