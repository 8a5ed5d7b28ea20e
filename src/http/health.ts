// Probes and discovery documents: `/healthz` (the process answers), `/readyz` (the store answers
// and the catalog is loaded), and the RFC 9728 protected-resource metadata MCP clients read
// after a 401 (MCP authorization spec, "Authorization Server Discovery").
import { Hono } from 'hono';
import type { OidcConfig } from '../config/index.js';
import { LOCAL_CALLER, TOKEN_SCOPES, type Gateway } from '../gateway/index.js';
import type { ReportBug } from './errors.js';
import type { HttpEnv } from './shared/types.js';

/** Routes mounted at the root, before authentication. */
export function healthRoutes(
  gateway: Gateway,
  options: { report?: ReportBug; oidc?: OidcConfig } = {},
): Hono<HttpEnv> {
  const { report, oidc } = options;
  const app = new Hono<HttpEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const reason = await notReady(gateway, report);
    return reason === undefined ? c.json({ status: 'ready' }) : c.json({ status: 'not ready', reason }, 503);
  });
  const metadata = (c: { req: { url: string }; json: (v: unknown) => Response }) => {
    const origin = new URL(c.req.url).origin;
    const resource = {
      resource: `${origin}/mcp`,
      resource_name: 'Carte',
      bearer_methods_supported: ['header'],
    };
    // Without auth.oidc Carte mints its own tokens (`carte token create`, the login link): it names
    // no authorization server, so a client is configured with a token rather than running OAuth.
    if (oidc === undefined) return c.json({ ...resource, scopes_supported: [...TOKEN_SCOPES] });
    // With it, a client that speaks MCP's OAuth flow finds the provider here (issue 31); the scopes
    // it asks that provider for are the provider's names (auth.oidc.scopesSupported), not Carte's.
    return c.json({
      ...resource,
      authorization_servers: [oidc.issuer],
      ...(oidc.scopesSupported.length === 0 ? {} : { scopes_supported: [...oidc.scopesSupported] }),
    });
  };
  // Both the root form (named in WWW-Authenticate) and the path-aware form RFC 9728 derives from /mcp.
  app.get('/.well-known/oauth-protected-resource', metadata);
  app.get('/.well-known/oauth-protected-resource/mcp', metadata);
  return app;
}

/** Why the gateway cannot serve yet, or undefined when it can. */
async function notReady(gateway: Gateway, report?: ReportBug): Promise<string | undefined> {
  try {
    await gateway.pingStore(); // a load balancer drains a replica whose database is away
  } catch {
    return 'the store does not answer'; // its address is not for an unauthenticated probe
  }
  let servers;
  try {
    servers = gateway.listServers(LOCAL_CALLER);
  } catch (err) {
    report?.(err);
    return 'the store does not answer; see the server log';
  }
  const pending = servers.filter((s) => s.enabled && s.lastDiscoveryAt === null && s.lastError === null);
  if (pending.length === 0) return undefined;
  const ids = pending.map((s) => s.id);
  return `the catalog is not loaded: ${ids.length} server${ids.length === 1 ? '' : 's'} never discovered (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`;
}
