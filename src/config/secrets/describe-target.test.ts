import { describe, expect, it } from 'vitest';
import { describeServerTarget, parseConfigText } from '../index.js';

describe('describeServerTarget', () => {
  it.each([
    ['command and args', { command: 'node', args: ['/x/y.js', '--flag'] }, 'node /x/y.js --flag'],
    [
      'quotes words with spaces',
      { command: 'C:\\Program Files\\node.exe', args: ['a b'] },
      '"C:\\Program Files\\node.exe" "a b"',
    ],
    ['keeps templates', { command: 'npx', args: ['--token', '${env:TOKEN}'] }, 'npx --token ${env:TOKEN}'],
    [
      'masks a literal after a secret flag',
      { command: 'x', args: ['--api-key', 'sk-123', '--port', '80'] },
      'x --api-key *** --port 80',
    ],
    ['masks --flag=value', { command: 'x', args: ['--token=abc', '--name=n'] }, 'x --token=*** --name=n'],
    [
      'masks a header argument',
      { command: 'npx', args: ['mcp-remote', '--header', 'Authorization: Bearer abc'] },
      'npx mcp-remote --header "Authorization: ***"',
    ],
    ['a URL', { url: 'https://example.com/mcp' }, 'https://example.com/mcp'],
    [
      'a URL template',
      { url: 'https://${env:HOST}/mcp?key=${env:KEY}' },
      'https://${env:HOST}/mcp?key=${env:KEY}',
    ],
    [
      'masks URL secrets',
      { url: 'https://u:pw@example.com/mcp?api_key=abc&x=1' },
      'https://u:***@example.com/mcp?api_key=***&x=1',
    ],
    ['neither', { enabled: true }, '(server "s" has no command or url)'],
  ])('%s', (_name, server, expected) => {
    expect(describeServerTarget('s', server)).toBe(expected);
  });

  it('shows a loaded server as written, never the resolved secret', () => {
    const text =
      'servers:\n  a:\n    command: npx\n    args: [tool, "${env:TOKEN}"]\n  b:\n    url: "https://x/mcp?t=${env:TOKEN}"\n';
    const { config } = parseConfigText(text, { path: '/c/carte.yaml', env: { TOKEN: 'tok_secret' } });
    expect(config?.servers.a).toMatchObject({ args: ['tool', 'tok_secret'] });
    expect(describeServerTarget('a', config!.servers.a!)).toBe('npx tool ${env:TOKEN}');
    expect(describeServerTarget('b', config!.servers.b!)).toBe('https://x/mcp?t=${env:TOKEN}');
  });
});
