import { describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from './index.js';

const env = { TOKEN: 'tok_secret' };
const load = (path: string, doc: unknown) => parseConfigText(JSON.stringify(doc), { path, env });
const claude = (servers: Record<string, unknown>, extra = {}) =>
  load('/home/u/claude_desktop_config.json', { mcpServers: servers, ...extra });
const only = (path: string, message: string): Problem[] => [{ path, message }];

describe('format detection', () => {
  it.each([
    ['claude', '/a/config.json', { mcpServers: {} }],
    ['claude', '/a/carte.yaml', { mcpServers: {} }],
    ['vscode', '/a/mcp.json', { servers: {} }],
    ['vscode', '/a/x.json', { servers: {}, inputs: [] }],
    ['vscode', '/a/x.json', { servers: { a: { type: 'stdio', command: 'x' } } }],
    ['carte', '/a/x.json', { servers: { a: { command: 'x' } } }],
    ['carte', '/a/mcp.json', { servers: {}, search: {} }],
    ['carte', '/a/carte.yaml', { servers: { a: { type: 'stdio', command: 'x' } } }],
  ])('reads %s from %s %j', (format, path, doc) => {
    expect(load(path, doc).format).toBe(format);
  });
});

describe('Claude Desktop / Cursor', () => {
  it('maps type, disabled and servers as they are', () => {
    const r = claude({
      fs: { command: 'npx', args: ['-y', 'x'], env: { K: '${env:TOKEN}' } },
      off: { command: 'x', disabled: true },
      remote: { type: 'http', url: 'https://a/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
      old: { type: 'sse', url: 'https://a/sse' },
      cursor: { url: 'https://c/mcp' },
    });
    expect(r).toMatchObject({ ok: true, format: 'claude', errors: [], warnings: [] });
    expect(r.config?.servers).toMatchObject({
      fs: { kind: 'stdio', command: 'npx', args: ['-y', 'x'], env: { K: 'tok_secret' }, enabled: true },
      off: { kind: 'stdio', enabled: false },
      remote: { kind: 'remote', headers: { Authorization: 'Bearer tok_secret' } },
      old: { kind: 'remote', transport: 'sse' },
      cursor: { kind: 'remote', url: 'https://c/mcp' },
    });
    expect(r.config?.servers.remote).not.toHaveProperty('transport');
  });

  it.each<[string, Record<string, unknown>, Problem[], Problem[]]>([
    [
      'unknown server keys are warnings',
      { a: { command: 'x', autoApprove: [], comand: 'y' } },
      [],
      [
        { path: 'mcpServers.a.autoApprove', message: 'ignored unknown key "autoApprove"' },
        { path: 'mcpServers.a.comand', message: 'ignored unknown key "comand"; did you mean "command"?' },
      ],
    ],
    [
      'an invalid id is normalised',
      { 'GitHub Tools': { command: 'x' } },
      [],
      only('mcpServers["GitHub Tools"]', 'server id "GitHub Tools" is not valid; using "github-tools"'),
    ],
    [
      'a normalised id that collides is an error',
      { GitHub: { command: 'x' }, github: { command: 'y' } },
      only('mcpServers.GitHub', 'server id "GitHub" becomes "github", which server "github" already uses'),
      [],
    ],
    [
      'an id with nothing usable is an error',
      { '!!!': { command: 'x' } },
      only('mcpServers["!!!"]', 'server id "!!!" has no letters or digits to make a valid id from'),
      [],
    ],
    [
      'a bad type',
      { a: { type: 'websocket', url: 'wss://a' } },
      only('mcpServers.a.type', 'expected "stdio", "http", "streamable-http" or "sse", got "websocket"'),
      [],
    ],
    [
      'stdio without command',
      { a: { type: 'stdio', url: 'https://a' } },
      only('mcpServers.a', 'type "stdio" needs "command"'),
      [],
    ],
    [
      'http without url',
      { a: { type: 'http', command: 'x' } },
      only('mcpServers.a', 'type "http" needs "url"'),
      [],
    ],
    [
      'disabled not boolean',
      { a: { command: 'x', disabled: 'yes' } },
      only('mcpServers.a.disabled', 'expected true or false, got "yes"'),
      [],
    ],
    [
      "errors use the file's own path",
      { Web: { url: 'ftp://a' } },
      only('mcpServers.Web.url', '"ftp://a" is not an http:// or https:// URL'),
      only('mcpServers.Web', 'server id "Web" is not valid; using "web"'),
    ],
    [
      'missing env names the variable',
      { a: { command: 'x', env: { T: '${env:NOPE}' } } },
      only('mcpServers.a.env.T', 'environment variable "NOPE" is not set'),
      [],
    ],
  ])('%s', (_name, servers, errors, warnings) => {
    const r = claude(servers);
    expect(r.errors).toEqual(errors);
    expect(r.warnings).toEqual(warnings);
    expect(r.ok).toBe(errors.length === 0);
  });

  it('keeps the normalised id in the config', () => {
    expect(Object.keys(claude({ 'My_Server.v2': { command: 'x' } }).config?.servers ?? {})).toEqual([
      'my_server-v2',
    ]);
  });

  it('warns about other top-level keys of the Claude Desktop file', () => {
    expect(claude({}, { globalShortcut: 'Ctrl+Space' }).warnings).toEqual(
      only('globalShortcut', 'ignored key "globalShortcut"; Carte reads only "mcpServers"'),
    );
  });
});
