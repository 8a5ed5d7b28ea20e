import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  carteCommand,
  clientSnippet,
  SERVE_NODE_FLAGS,
  serveCommand,
  shellCommand,
  shellLine,
  type SnippetInput,
} from './snippet.js';

const base: SnippetInput = {
  execPath: '/usr/bin/node',
  bin: '/app/bin/carte.js',
  configPath: '/work/carte.yaml',
  configSource: 'demo',
  defaultUserConfig: '/home/u/.config/carte/carte.yaml',
  dataDir: '/home/u/.local/share/carte',
  defaultDataDir: '/home/u/.local/share/carte',
  cwd: '/work',
};

describe('clientSnippet', () => {
  it.each<[string, Partial<SnippetInput>, string[]]>([
    ['defaults: nothing to pass', {}, []],
    [
      'a config from a flag',
      { configSource: 'flag', configPath: '/etc/c.yaml' },
      ['--config', '/etc/c.yaml'],
    ],
    [
      'a config from CARTE_CONFIG',
      { configSource: 'env', configPath: '/etc/c.yaml' },
      ['--config', '/etc/c.yaml'],
    ],
    ['a config found in the working directory', { configSource: 'cwd' }, ['--config', '/work/carte.yaml']],
    [
      'the user config at its default place: found without a flag',
      { configSource: 'user', configPath: '/home/u/.config/carte/carte.yaml' },
      [],
    ],
    [
      'a user config under XDG_CONFIG_HOME, which the client may not have',
      { configSource: 'user', configPath: '/x/carte/carte.yaml' },
      ['--config', '/x/carte/carte.yaml'],
    ],
    ['a data dir from a flag or CARTE_DATA_DIR', { dataDir: '/srv/carte' }, ['--data-dir', '/srv/carte']],
    ['a relative data dir, made absolute', { dataDir: 'data' }, ['--data-dir', '/work/data']],
  ])('%s', (_, input, extra) => {
    const s = clientSnippet({ ...base, ...input });
    expect(s.mcpServers.carte).toEqual({
      command: '/usr/bin/node',
      args: ['--max-semi-space-size=4', '/app/bin/carte.js', 'serve', ...extra],
    });
  });
});

describe('serveCommand', () => {
  it.each<[string, Partial<SnippetInput>]>([
    ['defaults', {}],
    ['a config from a flag', { configSource: 'flag', configPath: '/etc/c.yaml' }],
    ['a user config under XDG_CONFIG_HOME', { configSource: 'user', configPath: '/x/carte/carte.yaml' }],
    ['a data dir from CARTE_DATA_DIR', { dataDir: '/srv/carte' }],
  ])('the daemon gets the entry with --http after serve, and the same flags: %s', (_, input) => {
    const entry = clientSnippet({ ...base, ...input }).mcpServers.carte;
    const at = entry.args.indexOf('serve') + 1;
    expect(serveCommand({ ...base, ...input }, 'http')).toEqual({
      command: entry.command,
      args: [...entry.args.slice(0, at), '--http', ...entry.args.slice(at)],
    });
  });
});

describe('carteCommand', () => {
  it('runs the entry with the words and the same location flags, without the serve flags', () => {
    const input = {
      ...base,
      configSource: 'flag',
      configPath: '/etc/c.yaml',
      dataDir: '/srv/carte',
    } as const;
    expect(carteCommand(input, ['token', 'create'])).toEqual({
      command: '/usr/bin/node',
      args: ['/app/bin/carte.js', 'token', 'create', '--config', '/etc/c.yaml', '--data-dir', '/srv/carte'],
    });
  });
});

describe('shellLine', () => {
  it.each<[string, Record<string, string>, string[], string]>([
    ['plain words as they are', {}, ['a/b.js', '--x', 'y'], 'node a/b.js --x y'],
    [
      'spaces, quotes and $ single-quoted',
      {},
      ['/my dir', "it's", '$HOME'],
      `node '/my dir' 'it'\\''s' '$HOME'`,
    ],
    [
      'a database URL with a query before the command',
      { CARTE_DATABASE_URL: 'postgres://u@h/db?host=/run/pg' },
      ['t'],
      "CARTE_DATABASE_URL='postgres://u@h/db?host=/run/pg' node t",
    ],
  ])('%s', (_, env, args, line) => {
    expect(shellLine({ command: 'node', args }, env)).toBe(line);
  });

  it('is read back by a shell word for word', () => {
    const args = ['/my dir', "it's", '$HOME', 'a"b', ''];
    const r = spawnSync('sh', ['-c', `printf '%s\\n' ${shellLine({ command: 'x', args }).slice(2)}`], {
      encoding: 'utf8',
    });
    expect(r.stdout).toBe(args.map((a) => `${a}\n`).join(''));
  });
});

describe('shellCommand', () => {
  it.each<[string, Partial<SnippetInput>, string]>([
    ['defaults', {}, 'node /app/bin/carte.js'],
    [
      'a config from a flag and a data dir: a shell elsewhere reaches the same catalog',
      { configSource: 'flag', configPath: '/etc/c.yaml', dataDir: '/srv/my data' },
      "node /app/bin/carte.js --config /etc/c.yaml --data-dir '/srv/my data'",
    ],
    [
      'a $ in a path stays a $ (double quotes would expand it)',
      { configSource: 'flag', configPath: '/etc/$c.yaml' },
      "node /app/bin/carte.js --config '/etc/$c.yaml'",
    ],
  ])('%s', (_, input, expected) => {
    expect(shellCommand(clientSnippet({ ...base, ...input }).mcpServers.carte)).toBe(expected);
  });
});

describe('SERVE_NODE_FLAGS', () => {
  it('are accepted by this node, which refuses a flag it does not know', () => {
    const r = spawnSync(process.execPath, [...SERVE_NODE_FLAGS, '-e', '0'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
