import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from '../index.js';

const env = { TOKEN: 'tok_secret', HERE: '' };
const load = (path: string, doc: unknown) => parseConfigText(JSON.stringify(doc), { path, env });
const vscode = (servers: Record<string, unknown>) => load('/w/.vscode/mcp.json', { servers, inputs: [] });
const only = (path: string, message: string): Problem[] => [{ path, message }];

describe('VS Code', () => {
  it('reads typed servers', () => {
    const r = vscode({
      gh: { type: 'http', url: 'https://api/mcp' },
      st: { type: 'stdio', command: 'x', args: ['a'] },
      old: { type: 'sse', url: 'https://a/sse' },
    });
    expect(r).toMatchObject({ ok: true, format: 'vscode' });
    expect(r.config?.servers).toMatchObject({
      gh: { kind: 'remote' },
      st: { kind: 'stdio', args: ['a'] },
      old: { transport: 'sse' },
    });
  });

  it.each<[string, Record<string, unknown>, Problem[], Problem[]]>([
    [
      '${input:...} is an error naming server and input',
      { github: { type: 'stdio', command: 'x', env: { TOKEN: '${input:github-token}' } } },
      only(
        'servers.github.env.TOKEN',
        'server "github" uses input "github-token" (${input:github-token}), which is not supported; use ${env:NAME} instead',
      ),
      [],
    ],
    [
      '${input:...} in a header of a renamed server names the server as written',
      { GitHub: { type: 'http', url: 'https://a', headers: { Authorization: 'Bearer ${input:pat}' } } },
      only(
        'servers.GitHub.headers.Authorization',
        'server "GitHub" uses input "pat" (${input:pat}), which is not supported; use ${env:NAME} instead',
      ),
      only('servers.GitHub', 'server id "GitHub" is not valid; using "github"'),
    ],
    [
      'disabled is not a VS Code key',
      { a: { type: 'stdio', command: 'x', disabled: true } },
      [],
      only('servers.a.disabled', 'ignored unknown key "disabled"'),
    ],
    [
      "other clients' keys of mcpServers files are not read here",
      { a: { type: 'stdio', command: 'x', timeout: 5000 }, b: { type: 'http', httpUrl: 'https://a' } },
      only('servers.b', 'type "http" needs "url"'),
      [
        { path: 'servers.a.timeout', message: 'ignored unknown key "timeout"; did you mean "timeoutMs"?' },
        { path: 'servers.b.httpUrl', message: 'ignored unknown key "httpUrl"' },
      ],
    ],
    [
      "Carte's own keys are checked as in Carte's format",
      { 'my-server': { type: 'stdio', command: 'x', timeoutMs: -5, maxQueue: 'many', enabled: 1 } },
      [
        { path: 'servers.my-server.enabled', message: 'expected true or false, got 1' },
        { path: 'servers.my-server.timeoutMs', message: 'must be greater than 0, got -5' },
        { path: 'servers.my-server.maxQueue', message: 'expected a number, got "many"' },
      ],
      [],
    ],
  ])('%s', (_name, servers, errors, warnings) => {
    const r = vscode(servers);
    expect(r.errors).toEqual(errors);
    expect(r.warnings).toEqual(warnings);
  });

  it.each<[string, unknown]>([
    ['timeoutMs', 2000],
    ['discoveryTimeoutMs', 1500],
    ['idleTimeoutMs', 0],
    ['maxConcurrency', 2],
    ['maxQueue', 0],
    ['description', 'my files'],
    ['enabled', false],
  ])("reads Carte's %s", (key, value) => {
    const r = vscode({ 'my-server': { type: 'stdio', command: 'x', [key]: value } });
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.servers['my-server']).toHaveProperty(key, value);
  });
});

describe('VS Code envFile', () => {
  const root = mkdtempSync(join(tmpdir(), 'carte-envfile-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const workspace = join(root, 'ws');
  const config = join(workspace, '.vscode', 'mcp.json');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  mkdirSync(join(workspace, 'a-directory'));
  writeFileSync(
    join(workspace, '.env'),
    '# secrets\nexport FOO_TOKEN=from-file\nSHARED="file value"\nLITERAL=${NOT_EXPANDED}\nDOLLARS=a$${b}\n',
  );
  writeFileSync(join(workspace, '.vscode', 'local.env'), 'LOCAL=next to mcp.json\n');
  const load = (server: Record<string, unknown>, path = config) =>
    parseConfigText(JSON.stringify({ servers: { a: { type: 'stdio', command: 'x', ...server } } }), {
      path,
      env,
    });

  it('loads the file under env, whose own values win, and keeps its values literal', () => {
    const r = load({ envFile: '${workspaceFolder}/.env', env: { SHARED: 'env value', K: '${env:TOKEN}' } });
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.servers.a).toMatchObject({
      env: {
        FOO_TOKEN: 'from-file',
        SHARED: 'env value',
        LITERAL: '${NOT_EXPANDED}',
        DOLLARS: 'a$${b}',
        K: 'tok_secret',
      },
    });
  });

  it.each([
    ['a path relative to the config file', 'local.env'],
    ['an absolute path', join(workspace, '.vscode', 'local.env')],
    ['${env:NAME} in the path', '${env:HERE}local.env'],
  ])('reads %s', (_name, envFile) => {
    const r = load({ envFile });
    expect(r.errors).toEqual([]);
    expect(r.config?.servers.a).toMatchObject({ env: { LOCAL: 'next to mcp.json' } });
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a missing file',
      { envFile: '${workspaceFolder}/missing.env' },
      config,
      `env file ${JSON.stringify(join(workspace, 'missing.env'))} does not exist`,
    ],
    [
      'a directory',
      { envFile: '../a-directory' },
      config,
      `env file ${JSON.stringify(join(workspace, '.vscode', '..', 'a-directory'))} is a directory`,
    ],
    [
      '${workspaceFolder} outside a workspace',
      { envFile: '${workspaceFolder}/.env' },
      join(root, 'User', 'mcp.json'),
      `"\${workspaceFolder}" is used but this file is not in a workspace's .vscode folder; use a path relative to the file instead`,
    ],
    ['an unset variable', { envFile: '${env:NOPE}/.env' }, config, 'environment variable "NOPE" is not set'],
    ['not a string', { envFile: ['.env'] }, config, 'expected a string, got an array'],
  ])('%s is an error naming the path', (_name, server, path, message) => {
    const r = load(server, path);
    expect(r.errors).toEqual(only('servers.a.envFile', message));
    expect(r.ok).toBe(false);
  });

  it('only applies to a stdio server', () => {
    const doc = { servers: { a: { type: 'http', url: 'https://a/mcp', envFile: '.env' } } };
    expect(parseConfigText(JSON.stringify(doc), { path: config, env }).errors).toEqual(
      only('servers.a.envFile', '"envFile" only applies to a stdio server (one with "command")'),
    );
  });
});
