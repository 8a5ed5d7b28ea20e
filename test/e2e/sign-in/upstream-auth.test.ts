import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOCAL_CALLER as ME, type GatewayServer } from '../../../src/gateway/index.js';
import type { UpstreamTarget } from '../../../src/upstream/index.js';
import { harness, type Harness } from '../helpers.js';

// Issue 41, step 1: an HTTP upstream that answers 401 needs a sign-in; it has not failed.
let open: Harness[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
  servers.splice(0).forEach((s) => s.close());
});

/** An HTTP endpoint that refuses everything with 401 and a Bearer challenge, as a protected MCP server does. */
async function refusing(): Promise<string> {
  const srv = createServer((req, res) => {
    const origin = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    res.writeHead(401, {
      'content-type': 'application/json',
      'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    });
    res.end('{"error":"invalid_token"}');
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`;
}

function remote(id: string, url: string): GatewayServer {
  const target: UpstreamTarget = { kind: 'remote', url, headers: {} };
  return {
    id,
    enabled: true,
    timeoutMs: 10_000,
    discoveryTimeoutMs: 10_000,
    idleTimeoutMs: 0,
    maxConcurrency: 4,
    maxQueue: 8,
    target,
    display: url,
    configHash: createHash('sha256').update(JSON.stringify(target)).digest('hex'),
  };
}

const NEEDS =
  'server "notes" needs a sign-in (it answered HTTP 401 Unauthorized and Carte has no sign-in for it); run `carte auth login notes`';

describe('an upstream that answers 401', () => {
  it('is needs_sign_in in sync, listings, the agent view and calls, each naming carte auth login', async () => {
    const h = await harness([remote('notes', await refusing())]);
    open.push(h);
    const [r] = await h.gateway.sync(ME);
    expect(r).toMatchObject({ status: 'needs_sign_in', error: NEEDS });
    expect(r?.error).not.toMatch(/SSE/);
    const [s] = h.gateway.listServers(ME);
    expect(s).toMatchObject({ status: 'needs_sign_in', state: 'needs_sign_in', lastError: NEEDS });
    const browse = await h.gateway.browseTools(ME, {});
    expect(JSON.stringify(browse)).toContain(
      'needs a sign-in; ask the operator to run `carte auth login notes`',
    );
    await expect(h.gateway.callTool(ME, 'notes/anything', {})).rejects.toMatchObject({
      code: 'needs_sign_in',
      message:
        'unknown tool "notes/anything": server "notes" has no tools in the catalog because it needs a sign-in; run `carte auth login notes`',
    });
  });
});
