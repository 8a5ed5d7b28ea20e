import { describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from '../index.js';

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
      "Gemini CLI's trust: true (skip its confirmations) is ignored, not read as Carte's trust object",
      { a: { command: 'x', trust: true } },
      [],
      only(
        'mcpServers.a.trust',
        'ignored "trust": true, Gemini CLI\'s switch that skips its confirmations; Carte\'s own "trust" is an object such as {"pin": true} (docs/security.md)',
      ),
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

  it('warns about other top-level keys of the Claude Desktop file, but not "$schema"', () => {
    const r = claude({}, { globalShortcut: 'Ctrl+Space', $schema: './mcp-servers.schema.json' });
    expect(r.warnings).toEqual(
      only('globalShortcut', 'ignored key "globalShortcut"; Carte reads only "mcpServers"'),
    );
  });
});

describe("Carte's own server keys in an mcpServers file", () => {
  it.each<[string, unknown]>([
    ['timeoutMs', 2000],
    ['discoveryTimeoutMs', 1500],
    ['idleTimeoutMs', 0],
    ['maxConcurrency', 2],
    ['maxQueue', 0],
    ['description', 'my files'],
    ['enabled', false],
  ])('reads %s', (key, value) => {
    const r = claude({ 'my-server': { command: 'x', [key]: value } });
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.servers['my-server']).toHaveProperty(key, value);
  });

  it('names each bad value with its path in the file', () => {
    const r = claude({
      'my-server': {
        command: 'x',
        timeoutMs: 0,
        discoveryTimeoutMs: 1.5,
        idleTimeoutMs: 90_000_000,
        maxConcurrency: 0,
        maxQueue: -1,
        description: 5,
        enabled: 'no',
      },
      Other: { url: 'https://a/mcp', timeoutMs: '2000' },
    });
    expect(r.errors).toEqual([
      { path: 'mcpServers.my-server.enabled', message: 'expected true or false, got "no"' },
      { path: 'mcpServers.my-server.timeoutMs', message: 'must be greater than 0, got 0' },
      { path: 'mcpServers.my-server.discoveryTimeoutMs', message: 'expected an integer, got 1.5' },
      { path: 'mcpServers.my-server.idleTimeoutMs', message: 'must be at most 86400000, got 90000000' },
      { path: 'mcpServers.my-server.maxConcurrency', message: 'must be at least 1, got 0' },
      { path: 'mcpServers.my-server.maxQueue', message: 'must be at least 0, got -1' },
      { path: 'mcpServers.my-server.description', message: 'expected a string, got 5' },
      { path: 'mcpServers.Other.timeoutMs', message: 'expected a number, got "2000"' },
    ]);
    expect(r.ok).toBe(false);
  });

  it('suggests a near key', () => {
    expect(claude({ a: { command: 'x', timeoutMS: 5 } }).warnings).toEqual(
      only('mcpServers.a.timeoutMS', 'ignored unknown key "timeoutMS"; did you mean "timeoutMs"?'),
    );
  });
});

describe("other clients' keys in an mcpServers file", () => {
  it('maps httpUrl (Gemini CLI) to Streamable HTTP and serverUrl (Windsurf) to a remote server', () => {
    const r = claude({
      gemini: { httpUrl: 'https://g/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
      windsurf: { serverUrl: 'https://w/mcp' },
      typed: { type: 'http', serverUrl: 'https://t/mcp' },
      old: { type: 'sse', serverUrl: 'https://o/sse' },
    });
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.servers).toMatchObject({
      gemini: {
        kind: 'remote',
        url: 'https://g/mcp',
        transport: 'streamable-http',
        headers: { Authorization: 'Bearer tok_secret' },
      },
      windsurf: { kind: 'remote', url: 'https://w/mcp' },
      typed: { kind: 'remote', url: 'https://t/mcp' },
      old: { kind: 'remote', url: 'https://o/sse', transport: 'sse' },
    });
    expect(r.config?.servers.windsurf).not.toHaveProperty('transport');
    expect(r.config?.servers.typed).not.toHaveProperty('transport');
  });

  it('reads timeout (Gemini CLI) as the call timeout in milliseconds', () => {
    const r = claude({ a: { command: 'x', timeout: 5000 } });
    expect(r).toMatchObject({ ok: true, warnings: [] });
    expect(r.config?.servers.a).toMatchObject({ timeoutMs: 5000, discoveryTimeoutMs: 30_000 });
  });

  it.each<[string, Record<string, unknown>, Problem[], Problem[]]>([
    [
      'a timeout under 1000 looks like seconds (Cline) and is ignored',
      { a: { command: 'x', timeout: 60 } },
      [],
      only(
        'mcpServers.a.timeout',
        `ignored: 60 looks like seconds (Cline's unit), but Carte reads "timeout" in milliseconds (Gemini CLI's unit); for 60 s write "timeoutMs": 60000`,
      ),
    ],
    [
      'timeoutMs wins over timeout',
      { a: { command: 'x', timeout: 60, timeoutMs: 90_000 } },
      [],
      only('mcpServers.a.timeout', 'ignored because "timeoutMs" is also given'),
    ],
    [
      'a bad timeout is named as written',
      { a: { command: 'x', timeout: 0 }, b: { command: 'x', timeout: '30s' } },
      [
        { path: 'mcpServers.a.timeout', message: 'must be greater than 0, got 0' },
        { path: 'mcpServers.b.timeout', message: 'expected a number, got "30s"' },
      ],
      [],
    ],
    [
      'a bad httpUrl or serverUrl is named as written',
      { a: { httpUrl: 'ftp://a' }, b: { serverUrl: 5 } },
      [
        { path: 'mcpServers.b.serverUrl', message: 'expected a string, got 5' },
        { path: 'mcpServers.a.httpUrl', message: '"ftp://a" is not an http:// or https:// URL' },
      ],
      [],
    ],
    [
      'url and httpUrl together',
      { a: { url: 'https://a/sse', httpUrl: 'https://a/mcp' } },
      only('mcpServers.a', 'has both "url" and "httpUrl"; a server needs exactly one endpoint'),
      [],
    ],
    [
      'three endpoints',
      { a: { url: 'https://a', httpUrl: 'https://b', serverUrl: 'https://c' } },
      only('mcpServers.a', 'has "url", "httpUrl" and "serverUrl"; a server needs exactly one endpoint'),
      [],
    ],
    [
      'command and serverUrl together',
      { a: { command: 'x', serverUrl: 'https://a/mcp' } },
      only('mcpServers.a', 'has both "command" and "serverUrl"; a server needs exactly one'),
      [],
    ],
    [
      'type sse with httpUrl',
      { a: { type: 'sse', httpUrl: 'https://a/mcp' } },
      only(
        'mcpServers.a.type',
        '"sse" contradicts "httpUrl", a Streamable HTTP endpoint; write an SSE endpoint as "url"',
      ),
      [],
    ],
    [
      'enabled and disabled that contradict',
      { a: { command: 'x', enabled: true, disabled: true } },
      only('mcpServers.a', '"enabled": true and "disabled": true contradict each other; keep one'),
      [],
    ],
  ])('%s', (_name, servers, errors, warnings) => {
    const r = claude(servers);
    expect(r.errors).toEqual(errors);
    expect(r.warnings).toEqual(warnings);
    expect(r.ok).toBe(errors.length === 0);
  });

  it('keeps the default call timeout when timeout is ignored', () => {
    expect(claude({ a: { command: 'x', timeout: 60 } }).config?.servers.a?.timeoutMs).toBe(60_000);
  });

  it('accepts enabled and disabled that agree', () => {
    const r = claude({ a: { command: 'x', enabled: false, disabled: true } });
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.servers.a?.enabled).toBe(false);
  });
});
