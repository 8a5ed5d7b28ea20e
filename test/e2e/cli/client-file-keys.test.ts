import { afterAll, describe, expect, it } from 'vitest';
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, ROOT, startHttpFixture, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) on client config files (issue 13): Carte's
// own per-server keys and other clients' keys in mcpServers and VS Code files take effect.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir('carte-client-keys-');
const children: ChildProcess[] = [];
afterAll(() => {
  children.forEach((c) => c.kill('SIGKILL'));
  tmp.cleanup();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function carte(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', join(tmp.dir, 'data'), ...args],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface Report {
  server: string;
  status: string;
  toolCount: number;
  error?: string;
}

async function sync(config: string): Promise<{ code: number; reports: Report[] }> {
  const r = await carte(['sync', '--json', '--config', config]);
  return { code: r.code, reports: JSON.parse(r.stdout) as Report[] };
}

function writeJson(path: string, doc: unknown): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(doc, null, 2));
  return path;
}

const node = (fixture: string) => ({ command: process.execPath, args: [join(FIXTURES, fixture)] });

const DISCOVERY_TIMEOUT = /^server "hang" did not (answer initialize|finish discovery) within 1500 ms$/;

describe('an mcpServers file (Claude Desktop, Cursor, Gemini CLI, Windsurf)', () => {
  it('discoveryTimeoutMs ends the discovery of a server that hangs at start with its own timeout', async () => {
    const config = writeJson(join(tmp.dir, 'hang', 'claude_desktop_config.json'), {
      mcpServers: { hang: { ...node('hang-init.mjs'), discoveryTimeoutMs: 1500 } },
    });
    const { code, reports } = await sync(config);
    expect(code).toBe(69);
    expect(reports).toMatchObject([{ server: 'hang', status: 'failed' }]);
    expect(reports[0]?.error).toMatch(DISCOVERY_TIMEOUT);
  });

  it('timeout (Gemini CLI, milliseconds) bounds a call', async () => {
    const config = writeJson(join(tmp.dir, 'gemini', 'settings.json'), {
      mcpServers: { f: { ...node('faults.mjs'), timeout: 1000 } },
    });
    expect((await sync(config)).code).toBe(0);
    const r = await carte(['call', 'f/hang', '--config', config]);
    expect(r.code).toBe(75);
    expect(r.stderr).toContain('server "f" did not answer tools/call "hang" within 1000 ms');
  });

  it('httpUrl (Gemini CLI) and serverUrl (Windsurf) reach a remote server', async () => {
    const url = await startHttpFixture(children);
    const config = writeJson(join(tmp.dir, 'remote', 'mcp_config.json'), {
      mcpServers: { gemini: { httpUrl: url }, windsurf: { serverUrl: url } },
    });
    const { code, reports } = await sync(config);
    expect(code).toBe(0);
    expect(reports.map((r) => [r.server, r.status])).toEqual([
      ['gemini', 'success'],
      ['windsurf', 'success'],
    ]);
    expect(reports[0]!.toolCount).toBeGreaterThanOrEqual(8);
    expect(reports[1]!.toolCount).toBe(reports[0]!.toolCount);
  });

  it('description and disabled show in carte servers', async () => {
    const config = writeJson(join(tmp.dir, 'off', 'mcp.json'), {
      mcpServers: { off: { ...node('faults.mjs'), description: 'fault fixture', disabled: true } },
    });
    const r = await carte(['servers', '--json', '--config', config]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([
      { id: 'off', enabled: false, status: 'disabled', description: 'fault fixture' },
    ]);
  });

  it('carte config check names each bad value at its path in the file', async () => {
    const config = writeJson(join(tmp.dir, 'bad', 'claude_desktop_config.json'), {
      mcpServers: {
        'my-server': { ...node('faults.mjs'), timeoutMs: 0, maxQueue: -1 },
        gemini: { httpUrl: 'ftp://example', timeout: 'soon' },
        cline: { ...node('faults.mjs'), timeout: 60 },
      },
    });
    const r = await carte(['config', 'check', '--config', config]);
    expect(r.code).toBe(78);
    expect(r.stdout.trim().split('\n')).toEqual([
      'mcpServers.my-server.timeoutMs: must be greater than 0, got 0',
      'mcpServers.my-server.maxQueue: must be at least 0, got -1',
      'mcpServers.gemini.timeout: expected a number, got "soon"',
      'warning: mcpServers.cline.timeout: ignored: 60 looks like seconds (Cline\'s unit), but Carte reads "timeout" in milliseconds (Gemini CLI\'s unit); for 60 s write "timeoutMs": 60000',
    ]);
  });
});

describe('a VS Code file', () => {
  const workspace = join(tmp.dir, 'workspace');

  it('envFile with ${workspaceFolder} reaches the server', async () => {
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, '.env'), '# for the token check\nFOO_TOKEN=abcdef\n');
    const config = writeJson(join(workspace, '.vscode', 'mcp.json'), {
      servers: {
        tok: { type: 'stdio', ...node('exit-at-start.mjs'), envFile: '${workspaceFolder}/.env' },
      },
      inputs: [],
    });
    const { code, reports } = await sync(config);
    expect(code).toBe(0);
    expect(reports).toMatchObject([{ server: 'tok', status: 'success', toolCount: 1 }]);
    const r = await carte(['call', 'tok/check_token', '--json', '--config', config]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      content: [{ type: 'text', text: 'FOO_TOKEN has 6 characters' }],
    });
  });

  it('discoveryTimeoutMs and timeoutMs apply', async () => {
    const config = writeJson(join(tmp.dir, 'vscode-timeouts', '.vscode', 'mcp.json'), {
      servers: {
        hang: { type: 'stdio', ...node('hang-init.mjs'), discoveryTimeoutMs: 1500 },
        f: { type: 'stdio', ...node('faults.mjs'), timeoutMs: 800 },
      },
    });
    const { code, reports } = await sync(config);
    expect(code).toBe(69);
    const byId = Object.fromEntries(reports.map((r) => [r.server, r]));
    expect(byId.hang?.error).toMatch(DISCOVERY_TIMEOUT);
    expect(byId.f?.status).toBe('success');
    const r = await carte(['call', 'f/hang', '--config', config]);
    expect(r.code).toBe(75);
    expect(r.stderr).toContain('server "f" did not answer tools/call "hang" within 800 ms');
  });

  it('a missing envFile is a config error naming the path', async () => {
    const config = writeJson(join(tmp.dir, 'missing', '.vscode', 'mcp.json'), {
      servers: { tok: { type: 'stdio', ...node('exit-at-start.mjs'), envFile: 'secrets.env' } },
    });
    const r = await carte(['config', 'check', '--config', config]);
    expect(r.code).toBe(78);
    const missing = join(tmp.dir, 'missing', '.vscode', 'secrets.env');
    expect(r.stdout.trim()).toBe(`servers.tok.envFile: env file ${JSON.stringify(missing)} does not exist`);
  });
});
