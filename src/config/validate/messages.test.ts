import { describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from '../index.js';

const env = { GITHUB_TOKEN: 'ghp_secret' };
const yaml = (text: string) => parseConfigText(text, { path: '/cfg/carte.yaml', env, dataDir: '/data' });
const only = (path: string, message: string): Problem[] => [{ path, message }];

describe('Carte format: error messages', () => {
  it.each<[string, string, Problem[]]>([
    [
      'unknown server key',
      'servers:\n  x:\n    command: a\n    comand: b\n',
      only('servers.x.comand', 'unknown key "comand"; did you mean "command"?'),
    ],
    [
      'unknown key, no suggestion',
      'servers:\n  x:\n    command: a\n    zzz: 1\n',
      only('servers.x.zzz', 'unknown key "zzz"'),
    ],
    [
      'unknown top-level key',
      'server: {}\n',
      only('server', 'unknown key "server"; did you mean "servers"?'),
    ],
    [
      'unknown search key',
      'search:\n  strategie: lexical\n',
      only('search.strategie', 'unknown key "strategie"; did you mean "strategy"?'),
    ],
    [
      'remote key on stdio',
      'servers:\n  x:\n    command: a\n    headers: {}\n',
      only('servers.x.headers', '"headers" only applies to a remote server (one with "url")'),
    ],
    [
      'stdio key on remote',
      'servers:\n  x:\n    url: https://a\n    args: []\n',
      only('servers.x.args', '"args" only applies to a stdio server (one with "command")'),
    ],
    [
      'both command and url',
      'servers:\n  x:\n    command: a\n    url: https://a\n',
      only('servers.x', 'has both "command" and "url"; a server needs exactly one'),
    ],
    [
      'neither command nor url',
      'servers:\n  x:\n    enabled: true\n',
      only('servers.x', 'needs "command" (a stdio server) or "url" (a remote server)'),
    ],
    [
      'server not an object',
      'servers:\n  x: npx foo\n',
      only('servers.x', 'expected an object with "command" or "url", got "npx foo"'),
    ],
    [
      'empty server',
      'servers:\n  x:\n',
      only('servers.x', 'expected an object with "command" or "url", got null'),
    ],
    [
      'servers not an object',
      'servers: [a]\n',
      only('servers', 'expected an object of servers by id, got an array'),
    ],
    ['document not an object', '- a\n', only('', 'expected an object with "servers", got an array')],
    [
      'bad id',
      'servers:\n  GitHub:\n    command: a\n',
      only(
        'servers.GitHub',
        'invalid server id "GitHub"; use lower-case letters, digits, "-" and "_", starting with a letter or digit, e.g. "github"',
      ),
    ],
    [
      'bad id with dots',
      'servers:\n  my.server:\n    command: a\n',
      only(
        'servers["my.server"]',
        'invalid server id "my.server"; use lower-case letters, digits, "-" and "_", starting with a letter or digit, e.g. "my-server"',
      ),
    ],
    [
      'arg not a string',
      'servers:\n  x:\n    command: a\n    args: [a, 3]\n',
      only('servers.x.args.1', 'expected a string, got 3'),
    ],
    [
      'args not an array',
      'servers:\n  x:\n    command: a\n    args: --flag\n',
      only('servers.x.args', 'expected an array, got "--flag"'),
    ],
    [
      'env value hidden',
      'servers:\n  x:\n    command: a\n    env: {TOKEN: 12345}\n',
      only('servers.x.env.TOKEN', 'expected a string, got a number'),
    ],
    [
      'header value hidden',
      'servers:\n  x:\n    url: https://a\n    headers: {Authorization: [secret]}\n',
      only('servers.x.headers.Authorization', 'expected a string, got an array'),
    ],
    ['empty command', 'servers:\n  x:\n    command: ""\n', only('servers.x.command', 'must not be empty')],
    [
      'command not a string',
      'servers:\n  x:\n    command: 42\n',
      only('servers.x.command', 'expected a string, got 42'),
    ],
    [
      'timeout zero',
      'servers:\n  x:\n    command: a\n    timeoutMs: 0\n',
      only('servers.x.timeoutMs', 'must be greater than 0, got 0'),
    ],
    [
      'timeout fraction',
      'servers:\n  x:\n    command: a\n    timeoutMs: 1.5\n',
      only('servers.x.timeoutMs', 'expected an integer, got 1.5'),
    ],
    [
      'timeout too big',
      'servers:\n  x:\n    command: a\n    discoveryTimeoutMs: 99999999999\n',
      only('servers.x.discoveryTimeoutMs', 'must be at most 86400000, got 99999999999'),
    ],
    [
      'timeout as text',
      'servers:\n  x:\n    command: a\n    timeoutMs: 60s\n',
      only('servers.x.timeoutMs', 'expected a number, got "60s"'),
    ],
    [
      'enabled not boolean',
      'servers:\n  x:\n    command: a\n    enabled: "no"\n',
      only('servers.x.enabled', 'expected true or false, got "no"'),
    ],
    [
      'bad transport',
      'servers:\n  x:\n    url: https://a\n    transport: http\n',
      only('servers.x.transport', 'expected "streamable-http" or "sse", got "http"'),
    ],
    [
      'bad strategy',
      'search:\n  strategy: lexicl\n',
      only(
        'search.strategy',
        'expected "lexical", "hybrid" or "remote", got "lexicl"; did you mean "lexical"?',
      ),
    ],
    [
      'schema limit too small',
      'limits:\n  maxSchemaBytes: 10\n',
      only('limits.maxSchemaBytes', 'must be at least 1024, got 10'),
    ],
    ['section not an object', 'limits: 5\n', only('limits', 'expected an object, got 5')],
    [
      'bad exposure mode',
      'exposure:\n  mode: tools\n',
      only('exposure.mode', 'expected "meta" or "direct", got "tools"'),
    ],
    [
      'exposure maxTools too big',
      'exposure:\n  maxTools: 501\n',
      only('exposure.maxTools', 'must be at most 500, got 501'),
    ],
    [
      'exposure key misspelt',
      'exposure:\n  maxTool: 5\n',
      only('exposure.maxTool', 'unknown key "maxTool"; did you mean "maxTools"?'),
    ],
    ['$schema not a string', '$schema: 5\n', only('$schema', 'expected a string, got 5')],
    [
      'url not http',
      'servers:\n  x:\n    url: ftp://a\n',
      only('servers.x.url', '"ftp://a" is not an http:// or https:// URL'),
    ],
    [
      'url not a URL',
      'servers:\n  x:\n    url: example.com/mcp\n',
      only('servers.x.url', '"example.com/mcp" is not an http:// or https:// URL'),
    ],
    [
      'per-user sign-in without auth.oidc',
      'servers:\n  x:\n    url: https://a\n    oauth: {identity: per-user}\n',
      only(
        'servers.x.oauth.identity',
        'server "x" has per-user sign-in, which needs callers who sign in to Carte with an identity provider; configure auth.oidc, or set oauth.identity to "shared"',
      ),
    ],
    [
      'per-user sign-in with client_credentials',
      'servers:\n  x:\n    url: https://a\n    oauth: {identity: per-user, grant: client_credentials, clientId: c}\nauth:\n  oidc: {issuer: "https://idp", audience: carte}\n',
      only(
        'servers.x.oauth.identity',
        'server "x" signs in with client_credentials (machine to machine), which has no user to link; set oauth.identity to "shared"',
      ),
    ],
  ])('%s', (_name, text, errors) => {
    const r = yaml(text);
    expect(r.errors).toEqual(errors);
    expect(r).toMatchObject({ ok: false, warnings: [] });
    expect(r.config).toBeUndefined();
  });

  it('takes per-user sign-in where auth.oidc is configured, and shared by default', () => {
    const oidc = 'auth:\n  oidc: {issuer: "https://idp", audience: carte}\n';
    const r = yaml(`servers:\n  x:\n    url: https://a\n    oauth: {identity: per-user}\n${oidc}`);
    expect(r.errors).toEqual([]);
    expect(r.config?.servers.x).toMatchObject({ oauth: { identity: 'per-user' } });
    expect(yaml('servers:\n  x:\n    url: https://a\n    oauth: {}\n').config?.servers.x).toMatchObject({
      oauth: { identity: 'shared' },
    });
  });

  it('reports every problem in one pass', () => {
    const r = yaml(
      'servers:\n  a:\n    command: 1\n  b:\n    command: x\n    env: {T: "${env:NOPE}"}\nlimit: {}\n',
    );
    expect(r.errors.map((e) => e.path)).toEqual(['limit', 'servers.a.command', 'servers.b.env.T']);
  });
});
