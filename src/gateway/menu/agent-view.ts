// What an agent is shown of a server: what it can act on, and nothing of the operator's machine
// (no command line, URL, path, env, header, connection counters or raw error text: issue 13).
import { loginCommand } from '../../upstream/index.js';
import { isPerUser } from '../shared/types.js';
import type { AgentServer, GatewayServer, ServerSummary } from '../shared/types.js';

/** Why a server's tools cannot be used now, in words an agent can act on. */
function unusableReason(s: ServerSummary, server: GatewayServer | undefined): string | undefined {
  if (!s.enabled) return 'disabled by the operator';
  // A per-user server needs a sign-in only until the first person links (carte auth login refuses it).
  if ((s.state === 'needs_sign_in' || s.status === 'needs_sign_in') && server && isPerUser(server))
    return "has per-user sign-in and nobody has linked their account yet; link yours by calling it from an MCP client that supports URL elicitation, or with Link my account on the Servers page of Carte's web menu";
  if (s.state === 'needs_sign_in' || s.status === 'needs_sign_in')
    return `needs a sign-in; ask the operator to run \`${loginCommand(s.id)}\``;
  if (s.toolCount === 0 && s.status === 'never') return 'not discovered yet';
  if (s.toolCount === 0 && s.status === 'failed') return 'discovery failed; ask the operator';
  if (s.state === 'failed') return 'failing to start; calls fail until it recovers';
  return undefined;
}

/** The agent-facing summary of a server (`browse_tools {}`); `server`, its config, when at hand. */
export function agentServer(s: ServerSummary, visibleTools: number, server?: GatewayServer): AgentServer {
  const reason = unusableReason(s, server);
  return {
    id: s.id,
    ...(s.description ? { description: s.description } : {}),
    toolCount: visibleTools,
    usable: reason === undefined,
    ...(reason ? { reason } : {}),
  };
}
