// Slow: /mcp checked by outside tools on a real socket. The MCP conformance suite
// (@modelcontextprotocol/conformance@0.2.0-alpha.12) runs its generic server scenarios (and
// completion-complete, whose prompt the prompts-logs fixture owns), and the MCP
// Inspector CLI lists and calls in both eras. Neither sends a bearer token: an anonymous project
// is named, so they get the search scope.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpServerHandle } from '../../../src/http/index.js';
import { fixture, harness, referenceEntry, ROOT, stdioServer, tempDir, type Harness } from '../helpers.js';

const BIN = join(ROOT, 'node_modules', '.bin');
let h: Harness;
let server: HttpServerHandle;
let home: ReturnType<typeof tempDir>;

beforeAll(async () => {
  h = await harness([
    stdioServer('everything', [referenceEntry('server-everything'), 'stdio']),
    // Owns the prompt completion-complete asks about, by its bare upstream name.
    fixture('fx', 'prompts-logs.mjs'),
  ]);
  await h.gateway.sync(ME);
  server = await listenHttp(
    createHttpApp({ gateway: h.gateway, store: h.store, anonymousProject: 'default' }),
    {
      host: '127.0.0.1',
      port: 0,
    },
  );
  home = tempDir('carte-inspector-home-');
});
afterAll(async () => {
  await server?.stop();
  await h?.close();
  home?.cleanup();
});

/** Runs a tool to its end without blocking this process's event loop (it serves the requests). */
function run(command: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      // The inspector keeps secrets under ~/.mcp-inspector: give it a home of its own.
      env: { ...process.env, HOME: home.dir, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('conformance server scenarios', () => {
  it.each([
    ['server-initialize', 3],
    ['ping', 2],
    ['tools-list', 3],
    ['dns-rebinding-protection', 2],
    ['logging-set-level', 2],
    ['completion-complete', 2],
  ])('%s passes', async (scenario, checks) => {
    const { code, out } = await run(join(BIN, 'conformance'), [
      'server',
      '--url',
      `${server.url}/mcp`,
      '--scenario',
      scenario,
    ]);
    expect(out).toContain(`Passed: ${checks}/${checks}, 0 failed`);
    expect(code).toBe(0);
  });
});

describe('MCP Inspector CLI', () => {
  const inspector = (...args: string[]) =>
    run(join(BIN, 'mcp-inspector'), ['--cli', `${server.url}/mcp`, '--format', 'json', '-q', ...args]);

  it.each(['legacy', 'modern'])('lists the four meta-tools in the %s era', async (era) => {
    const { code, out } = await inspector('--method', 'tools/list', '--protocol-era', era);
    expect(code).toBe(0);
    const names = (JSON.parse(out) as { result: { tools: Array<{ name: string }> } }).result.tools.map(
      (t) => t.name,
    );
    expect(names).toEqual(['search_tools', 'browse_tools', 'describe_tool', 'call_tool']);
  });

  it('calls search_tools', async () => {
    const { code, out } = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'search_tools',
      '--tool-arg',
      'query=echo',
    );
    expect(code).toBe(0);
    expect(out).toContain('everything/echo');
  });
});
