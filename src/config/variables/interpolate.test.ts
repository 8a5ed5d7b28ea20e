import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../index.js';

const env = { TOKEN: 'tok_secret', HOST: 'example.com', EMPTY: '', PORT: '8080' };
const stdio = (field: string, dataDir: string | undefined = '/data') =>
  parseConfigText(`servers:\n  s:\n    command: node\n${field}\n`, { path: '/c/carte.yaml', env, dataDir });

describe('variables', () => {
  it.each([
    ['env in args', '    args: ["--token=${env:TOKEN}"]', { args: ['--token=tok_secret'] }],
    ['two variables in one value', '    args: ["${env:HOST}:${env:PORT}"]', { args: ['example.com:8080'] }],
    ['an empty variable is set', '    args: ["x${env:EMPTY}y"]', { args: ['xy'] }],
    ['dataDir', '    args: ["${dataDir}/sandbox"]', { args: ['/data/sandbox'] }],
    ['env values', '    env: {API_KEY: "${env:TOKEN}"}', { env: { API_KEY: 'tok_secret' } }],
    ['cwd', '    cwd: "${dataDir}/work"', { cwd: '/data/work' }],
    ['$${ is a literal ${', '    args: ["$${env:TOKEN}"]', { args: ['${env:TOKEN}'] }],
    ['a lone $ is kept', '    args: ["cost: $5", "$HOME"]', { args: ['cost: $5', '$HOME'] }],
  ])('expands %s', (_name, field, expected) => {
    const r = stdio(field);
    expect(r.errors).toEqual([]);
    expect(r.config?.servers.s).toMatchObject(expected);
  });

  it('expands the command, url and header values', () => {
    const text =
      'servers:\n  a:\n    command: "${dataDir}/bin/x"\n  b:\n    url: "https://${env:HOST}/mcp"\n    headers: {Authorization: "Bearer ${env:TOKEN}"}\n';
    const r = parseConfigText(text, { path: '/c/carte.yaml', env, dataDir: '/d' });
    expect(r.config?.servers).toMatchObject({
      a: { command: '/d/bin/x' },
      b: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer tok_secret' } },
    });
  });

  it('leaves description and keys alone', () => {
    const r = stdio('    description: "${env:TOKEN}"\n    env: {"${env:TOKEN}": x}');
    expect(r.config?.servers.s).toMatchObject({ description: '${env:TOKEN}', env: { '${env:TOKEN}': 'x' } });
  });

  const withField = (field: string) => `servers:\n  s:\n    command: node\n${field}\n`;
  it.each([
    [
      'missing variable',
      withField('    env: {TOKEN: "${env:GITHUB_TOKEN}"}'),
      'servers.s.env.TOKEN',
      'environment variable "GITHUB_TOKEN" is not set',
    ],
    [
      'bad variable name',
      withField('    args: ["${env:A-B}"]'),
      'servers.s.args.0',
      'invalid environment variable name "A-B" in "${env:A-B}"',
    ],
    [
      'unknown variable',
      withField('    args: ["${workspaceFolder}/x"]'),
      'servers.s.args.0',
      'unknown variable "${workspaceFolder}"; use ${env:NAME}, ${dataDir}, or $${ for a literal "${"',
    ],
    [
      'unterminated variable',
      withField('    args: ["${env:TOKEN"]'),
      'servers.s.args.0',
      'unterminated variable "${env:TOKEN"; close it with "}"',
    ],
    [
      'input variable',
      withField('    args: ["${input:pat}"]'),
      'servers.s.args.0',
      'server "s" uses input "pat" (${input:pat}), which is not supported; use ${env:NAME} instead',
    ],
    [
      '${dataDir} without a data dir',
      withField('    args: ["${dataDir}"]'),
      'servers.s.args.0',
      '"${dataDir}" is used but no data directory was given',
    ],
    [
      'an empty command',
      'servers:\n  s:\n    command: "${env:EMPTY}"\n',
      'servers.s.command',
      '"${env:EMPTY}" expands to an empty command',
    ],
  ])('reports %s', (_name, text, path, message) => {
    expect(parseConfigText(text, { path: '/c/carte.yaml', env }).errors).toEqual([{ path, message }]);
  });

  it('never prints a resolved value in a message', () => {
    const text = [
      'servers:',
      '  a:',
      '    url: "https://${env:TOKEN}"',
      '    headers: {X: "${env:TOKEN}${env:NOPE}"}',
      '  b:',
      '    url: "${env:TOKEN}/mcp"',
    ].join('\n');
    const r = parseConfigText(text, { path: '/c/carte.yaml', env });
    expect(r.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(r)).not.toContain('tok_secret');
    expect(r.errors).toContainEqual({
      path: 'servers.b.url',
      message: '"${env:TOKEN}/mcp" is not an http:// or https:// URL',
    });
  });
});
