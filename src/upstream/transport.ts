import {
  type FetchLike,
  type OAuthClientProvider,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { CarteOAuthProvider } from './oauth/provider.js';
import { launchSandboxed, type SandboxLaunch } from './sandbox/launch.js';
import type { StderrTail } from './stderr-tail.js';
import type { UpstreamTarget } from './types.js';

/**
 * A sandboxed server's stdio transport. Being a subclass, it makes the SDK probe the protocol era
 * on this connection rather than on a sibling process spawned for the probe: the sandbox (and a
 * network grant's forwarder) is started once, not twice (docs/sandbox.md). A server that exits on
 * the probe is started again in the 2025 era (UpstreamConnection.open).
 */
class SandboxedStdioTransport extends StdioClientTransport {}

/** The sandbox each sandboxed stdio transport runs in. */
const launches = new WeakMap<Transport, SandboxLaunch>();

/** The sandbox a transport's child runs in, if any. */
export function launchOf(transport: Transport): SandboxLaunch | undefined {
  return launches.get(transport);
}

/**
 * Builds the transport for a target. stdio children get the default safe environment plus the
 * configured env, passed explicitly; their stderr goes to `tail`, never to our stdout.
 */
export async function createTransport(
  target: UpstreamTarget,
  tail: StderrTail,
  opts: {
    remoteKind?: 'streamable-http' | 'sse' | undefined;
    maxMessageBytes: number;
    serverId: string;
    /** The server's OAuth client (remote targets): bearer tokens, refresh and step-up. */
    authProvider?: OAuthClientProvider | undefined;
  },
): Promise<Transport> {
  const { remoteKind } = opts;
  if (target.kind === 'stdio') {
    const launch = target.sandbox
      ? await launchSandboxed(opts.serverId, { ...target, sandbox: target.sandbox })
      : undefined;
    const params = {
      command: launch?.command ?? target.command,
      args: launch?.args ?? target.args,
      env: { ...getDefaultEnvironment(), ...target.env, ...launch?.env },
      stderr: 'pipe' as const,
      // The read buffer bounds one message: a bigger result resets the connection (limits.maxResultBytes).
      maxBufferSize: stdioReadLimit(opts.maxMessageBytes),
      ...(target.cwd ? { cwd: target.cwd } : {}),
    };
    const transport = launch ? new SandboxedStdioTransport(params) : new StdioClientTransport(params);
    transport.stderr?.on('data', (chunk: Buffer) => tail.write(chunk));
    if (launch) launches.set(transport, launch);
    return transport;
  }
  const url = new URL(target.url);
  const requestInit = { headers: target.headers };
  const kind = remoteKind ?? target.transport ?? 'streamable-http';
  const provider = opts.authProvider;
  const options = {
    requestInit,
    ...(provider ? { authProvider: provider } : {}),
    ...(provider instanceof CarteOAuthProvider ? { fetch: notingChallenges(provider) } : {}),
  };
  return kind === 'sse'
    ? new SSEClientTransport(url, options)
    : new StreamableHTTPClientTransport(url, options);
}

/** fetch that tells the provider what each 401 or 403 asked for (the SDK reads the challenge but keeps it). */
function notingChallenges(provider: CarteOAuthProvider): FetchLike {
  return async (url, init) => {
    const res = await fetch(url, init);
    if (res.status === 401 || res.status === 403) provider.noteChallenge(res.headers.get('www-authenticate'));
    return res;
  };
}

/** The pid of a stdio child, when there is one (for tests and `carte servers`). */
export function transportPid(transport: Transport): number | null {
  return transport instanceof StdioClientTransport ? transport.pid : null;
}

/** The stdio read buffer for a message bound: the message plus room for its JSON-RPC envelope. */
export const stdioReadLimit = (maxMessageBytes: number): number => maxMessageBytes + 64 * 1024;
