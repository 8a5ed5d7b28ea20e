import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT, referenceEntry, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) in a fake home, as a person would, then
// starts Carte from the entry it wrote, as the client would.
const BIN = join(ROOT, 'bin', 'carte.js');
const dirs: (() => void)[] = [];
afterAll(() => dirs.forEach((cleanup) => cleanup()));

const everything = { command: process.execPath, args: [referenceEntry('server-everything'), 'stdio'] };
const SECRET = 'sk-abcdefghijklmnopqrstuvwxyz123456';

/** Each client's file as it writes it: its own keys around the servers, its own indentation. */
const CLIENTS: Record<string, { file: string; text: string; section: string }> = {
  'claude-desktop': {
    file: '.config/Claude/claude_desktop_config.json',
    section: 'mcpServers',
    text: `{\n  "mcpServers": {\n    "everything": ${JSON.stringify(everything)}\n  },\n  "preferences": {\n    "sidebarMode": "chat"\n  }\n}`,
  },
  'claude-code': {
    file: '.claude.json',
    section: 'mcpServers',
    text: `{\n  "numStartups": 12,\n  "projects": {\n    "/work/app": {\n      "mcpServers": {}\n    }\n  },\n  "mcpServers": {\n    "everything": ${JSON.stringify({ type: 'stdio', ...everything, env: { API_KEY: SECRET } })}\n  },\n  "userID": "abc"\n}\n`,
  },
  cursor: {
    file: '.cursor/mcp.json',
    section: 'mcpServers',
    text: `{\n\t"mcpServers": {\n\t\t"everything": ${JSON.stringify(everything)}\n\t}\n}\n`,
  },
  vscode: {
    file: '.config/Code/User/mcp.json',
    section: 'servers',
    text: `{\n   // prompted by VS Code\n   "inputs": [\n      { "type": "promptString", "id": "token", "password": true },\n   ],\n   "servers": {\n      "everything": ${JSON.stringify({ type: 'stdio', ...everything })},\n   },\n}\n`,
  },
  windsurf: {
    file: '.codeium/windsurf/mcp_config.json',
    section: 'mcpServers',
    text: `{\r\n    "mcpServers": {\r\n        "everything": ${JSON.stringify(everything)},\r\n        "zapier": { "serverUrl": "https://zapier.invalid/sse", "disabled": true }\r\n    }\r\n}\r\n`,
  },
  'gemini-cli': {
    file: '.gemini/settings.json',
    section: 'mcpServers',
    text: `{\n  "theme": "Dracula",\n  "selectedAuthType": "gemini-api-key",\n  "mcpServers": {\n    "everything": ${JSON.stringify({ ...everything, timeout: 30000 })}\n  }\n}\n`,
  },
};

interface Home {
  dir: string;
  env: Record<string, string>;
  file: (client: string) => string;
  userConfig: string;
}

/** A fake home: the client's file where the client keeps it, and an environment pointing there. */
function fakeHome(client?: string): Home {
  const t = tempDir('carte-home-');
  dirs.push(t.cleanup);
  const env: Record<string, string> = { HOME: t.dir, APPDATA: join(t.dir, 'AppData', 'Roaming') };
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(XDG_|CARTE_)/.test(k) && !(k in env)) env[k] = v;
  // The dictionaries' gloss files, built once for every test (vitest.config.ts): else a Carte the
  // test started builds them in this home's ~/.cache after the cleanup, and the home is left behind.
  if (process.env.CARTE_CACHE_DIR) env.CARTE_CACHE_DIR = process.env.CARTE_CACHE_DIR;
  const file = (c: string) => join(t.dir, CLIENTS[c]!.file);
  if (client) {
    mkdirSync(dirname(file(client)), { recursive: true });
    writeFileSync(file(client), CLIENTS[client]!.text);
  }
  return { dir: t.dir, env, file, userConfig: join(t.dir, '.config', 'carte', 'carte.yaml') };
}

function carte(home: Home, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: home.dir, env: home.env, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The entry Carte wrote into the client's file. */
function carteEntry(home: Home, client: string): { command: string; args: string[] } {
  const doc = JSON.parse(
    readFileSync(home.file(client), 'utf8')
      .replace(/,(\s*[}\]])/g, '$1')
      .replace(/^\s*\/\/.*$/gm, ''),
  ) as Record<string, Record<string, { command: string; args: string[] }>>;
  return doc[CLIENTS[client]!.section]!.carte!;
}

describe.each(Object.keys(CLIENTS))('carte install --client %s', (client) => {
  it('moves the servers into Carte, serves them through the entry it wrote, and uninstalls byte for byte', async () => {
    const home = fakeHome(client);
    const original = readFileSync(home.file(client));
    const r = await carte(home, ['install', '--client', client]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `moved ${client === 'windsurf' ? '2 servers' : '1 server'} from ${home.file(client)} into ${home.userConfig}`,
    );
    expect(readFileSync(home.userConfig, 'utf8')).toContain(`# from ${home.file(client)}\n  everything:\n`);
    const entry = carteEntry(home, client);
    expect(entry.args).toEqual(['--max-semi-space-size=4', BIN, 'serve']); // the user config and data dir are found on their own

    const mcp = new Client({ name: client, version: '0' });
    await mcp.connect(new StdioClientTransport({ ...entry, env: home.env, cwd: home.dir, stderr: 'pipe' }));
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain('call_tool');
      const echo = await mcp.callTool({
        name: 'call_tool',
        arguments: { key: 'everything/echo', arguments: { message: client } },
      });
      expect(echo.content).toEqual([{ type: 'text', text: `Echo: ${client}` }]);
    } finally {
      await mcp.close();
    }

    const u = await carte(home, ['uninstall', '--client', client]);
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('as it was before install (byte for byte)');
    expect(readFileSync(home.file(client)).equals(original)).toBe(true);
    expect(existsSync(`${home.file(client)}.carte-backup`)).toBe(false);
    // Install created the user config; emptied, it goes, so the bundled demo is found again.
    expect(u.stdout).toContain(
      `removed ${home.userConfig}: install created it, and no server is left in it\n`,
    );
    expect(existsSync(home.userConfig)).toBe(false);
    expect((await carte(home, ['servers'])).stdout).toContain(
      'config: the bundled demo (no config file found)',
    );
  });
});

describe('carte install, the edges a person meets', () => {
  it('leaves a config install did not create, emptied or not', async () => {
    const home = fakeHome('cursor');
    mkdirSync(dirname(home.userConfig), { recursive: true });
    writeFileSync(home.userConfig, 'servers: {}\n');
    await carte(home, ['install', '--client', 'cursor']);
    const u = await carte(home, ['uninstall', '--client', 'cursor']);
    expect(u.code).toBe(0);
    expect(u.stdout).not.toContain('install created it');
    expect(readFileSync(home.userConfig, 'utf8')).toBe('servers: {}\n');
  });

  it('does nothing the second time, and says so', async () => {
    const home = fakeHome('cursor');
    await carte(home, ['install', '--client', 'cursor']);
    const once = readFileSync(home.file('cursor'), 'utf8');
    const again = await carte(home, ['install', '--client', 'cursor']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `Cursor already goes through Carte: ${home.file('cursor')} already has a "carte" entry; nothing to do\n`,
    );
    expect(readFileSync(home.file('cursor'), 'utf8')).toBe(once);
    const servers = await carte(home, ['servers']);
    expect(servers.stdout).toContain(`config: ${home.userConfig} (the user config)\n`);
  });

  it('rewrites an entry an older Carte wrote only on --refresh, and uninstall still restores byte for byte', async () => {
    const home = fakeHome('cursor');
    await carte(home, ['install', '--client', 'cursor']);
    // As an older Carte wrote it: no node flags. Its install record matched that text.
    const fresh = readFileSync(home.file('cursor'), 'utf8');
    const old = fresh.replace(/\n\s*"--max-semi-space-size=4",/, '');
    expect(old).not.toBe(fresh);
    writeFileSync(home.file('cursor'), old);
    const recordPath = join(home.dir, '.local', 'share', 'carte', 'installs', 'cursor.json');
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as Record<string, unknown>;
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    writeFileSync(recordPath, JSON.stringify({ ...record, installedDigest: sha(old) }));

    const doctor = async () =>
      (await carte(home, ['doctor'])).stdout.split('\n').find((l) => l.includes('client cursor'));
    expect(await doctor()).toMatch(
      /starts Carte otherwise .*`carte install --client cursor --refresh` rewrites it$/,
    );
    const stale = await carte(home, ['install', '--client', 'cursor']);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain(
      `Cursor already goes through Carte, but its "carte" entry in ${home.file('cursor')} starts it otherwise:\n`,
    );
    expect(stale.stdout).toContain(
      `  this Carte: ${JSON.stringify(process.execPath)} "--max-semi-space-size=4" ${JSON.stringify(BIN)} "serve"\n`,
    );
    expect(readFileSync(home.file('cursor'), 'utf8')).toBe(old);
    const dry = await carte(home, ['install', '--client', 'cursor', '--refresh', '--dry-run']);
    expect(dry.stdout).toContain('+       "--max-semi-space-size=4",');
    expect(readFileSync(home.file('cursor'), 'utf8')).toBe(old);

    const r = await carte(home, ['install', '--client', 'cursor', '--refresh']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`rewrote the "carte" entry in ${home.file('cursor')}; restart Cursor\n`);
    expect(readFileSync(home.file('cursor'), 'utf8')).toBe(fresh);
    expect(await doctor()).toMatch(/starts this Carte$/);
    const u = await carte(home, ['uninstall', '--client', 'cursor']);
    expect(u.stdout).toContain('as it was before install (byte for byte)');
    expect(readFileSync(home.file('cursor'), 'utf8')).toBe(CLIENTS.cursor!.text);
  });

  it('--dry-run prints the change and writes nothing', async () => {
    const home = fakeHome('claude-code');
    const r = await carte(home, ['install', '--client', 'claude-code', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dry run: nothing is written');
    expect(r.stdout).toContain('+     "carte": {');
    expect(r.stdout).not.toContain(SECRET);
    expect(readFileSync(home.file('claude-code'), 'utf8')).toBe(CLIENTS['claude-code']!.text);
    expect(existsSync(home.userConfig)).toBe(false);
    expect(existsSync(`${home.file('claude-code')}.carte-backup`)).toBe(false);
  });

  it('writes inline secrets as they were into a file only the user can read, and names them', async () => {
    const home = fakeHome('claude-code');
    const r = await carte(home, ['install', '--client', 'claude-code']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '  everything: env.API_KEY holds an OpenAI or Anthropic API key written inline\n',
    );
    expect(r.stdout).not.toContain(SECRET);
    expect(readFileSync(home.userConfig, 'utf8')).toContain(`API_KEY: ${SECRET}`);
    expect(statSync(home.userConfig).mode & 0o777).toBe(0o600);
  });

  it('refuses a server id Carte already has with another definition, naming both, and writes nothing', async () => {
    const home = fakeHome('cursor');
    mkdirSync(dirname(home.userConfig), { recursive: true });
    writeFileSync(home.userConfig, 'servers:\n  everything:\n    command: other\n');
    const r = await carte(home, ['install', '--client', 'cursor']);
    expect(r.code).toBe(64);
    expect(r.stderr).toBe(
      `carte: server "everything" in "${home.file('cursor')}" differs from server "everything" already in "${home.userConfig}"; rename or remove one of them, then install again\n`,
    );
    expect(readFileSync(home.file('cursor'), 'utf8')).toBe(CLIENTS.cursor!.text);
    expect(existsSync(`${home.file('cursor')}.carte-backup`)).toBe(false);
  });

  it('names the moved remote servers that need a sign-in, and doctor lists them with the same line', async () => {
    // A remote server that answers every MCP request with 401 (and has no metadata to discover).
    const remote = createServer((req, res) => {
      if (req.url === '/mcp') res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => remote.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/mcp`;
      const home = fakeHome();
      mkdirSync(dirname(home.file('cursor')), { recursive: true });
      writeFileSync(home.file('cursor'), JSON.stringify({ mcpServers: { everything, notes: { url } } }));
      const r = await carte(home, ['install', '--client', 'cursor']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(
        '1 server needs a sign-in before Carte can use it:\n  notes (it asks for a sign-in): run `carte auth login notes`\n',
      );
      expect(r.stdout).not.toMatch(/everything \(/);
      const d = await carte(home, ['doctor']);
      expect(d.code).toBe(77);
      expect(d.stdout).toMatch(/FAIL +server notes +server "notes" needs a sign-in/);
      expect(d.stdout).toContain('  server notes: run `carte auth login notes`\n');
    } finally {
      remote.close();
    }
  });

  it('names the path it looked at when the client has no file', async () => {
    const home = fakeHome();
    const r = await carte(home, ['install', '--client', 'windsurf']);
    expect(r.code).toBe(64);
    expect(r.stderr).toBe(
      `carte: no Windsurf config at "${home.file('windsurf')}"; start Windsurf once (or create the file), then install again\n`,
    );
  });
});
