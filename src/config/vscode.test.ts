import { describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from './index.js';

const env = { TOKEN: 'tok_secret' };
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
      'envFile is a warning',
      { a: { type: 'stdio', command: 'x', envFile: '.env' } },
      [],
      only('servers.a.envFile', 'ignored unknown key "envFile"'),
    ],
    [
      'disabled is not a VS Code key',
      { a: { type: 'stdio', command: 'x', disabled: true } },
      [],
      only('servers.a.disabled', 'ignored unknown key "disabled"'),
    ],
  ])('%s', (_name, servers, errors, warnings) => {
    const r = vscode(servers);
    expect(r.errors).toEqual(errors);
    expect(r.warnings).toEqual(warnings);
  });
});
