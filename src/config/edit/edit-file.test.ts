import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addServerToFile, loadConfigFile, removeServerFromFile } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'carte-edit-'));
let n = 0;
function file(name: string, text?: string): string {
  const path = join(dir, `${n++}-${name}`);
  if (text !== undefined) writeFileSync(path, text);
  return path;
}
const read = (path: string) => readFileSync(path, 'utf8');

const YAML = `# My servers
servers:
  # the first one
  alpha:
    command: a # inline
  zeta:
    url: https://z/mcp
search:
  strategy: lexical
`;

describe('addServerToFile / removeServerFromFile on YAML', () => {
  it('adds at the end, keeping comments and order', () => {
    const path = file('carte.yaml', YAML);
    addServerToFile(path, 'beta', { command: 'node', args: ['/x/y.js', '--flag'], env: { T: '${env:T}' } });
    expect(read(path)).toBe(
      YAML.replace(
        '    url: https://z/mcp\n',
        '    url: https://z/mcp\n  beta:\n    command: node\n    args:\n      - /x/y.js\n      - --flag\n    env:\n      T: ${env:T}\n',
      ),
    );
    expect(loadConfigFile(path, { env: { T: 't' } })).toMatchObject({
      ok: true,
      config: { servers: { beta: { args: ['/x/y.js', '--flag'] } } },
    });
  });

  it('removes one server, keeping the other comments', () => {
    const path = file('carte.yaml', YAML);
    expect(removeServerFromFile(path, 'zeta')).toBe(true);
    expect(read(path)).toBe(YAML.replace('  zeta:\n    url: https://z/mcp\n', ''));
    expect(removeServerFromFile(path, 'zeta')).toBe(false);
  });

  it('creates a missing file', () => {
    const path = file('new.yaml');
    addServerToFile(path, 'web', { url: 'https://w/mcp', transport: 'sse' });
    expect(read(path)).toBe('servers:\n  web:\n    url: https://w/mcp\n    transport: sse\n');
  });

  it('turns an empty flow map into a block', () => {
    const path = file('carte.yaml', 'servers: {} # none yet\n');
    addServerToFile(path, 'a', { command: 'x' });
    expect(loadConfigFile(path, { env: {} }).config?.servers.a).toMatchObject({ command: 'x' });
    expect(read(path)).toContain('# none yet');
  });

  it('fills an empty servers key', () => {
    const path = file('carte.yaml', 'servers:\n');
    addServerToFile(path, 'a', { command: 'x' });
    expect(read(path)).toBe('servers:\n  a:\n    command: x\n');
  });

  it('writes under mcpServers in a Claude-style YAML file', () => {
    const path = file('x.yaml', 'mcpServers:\n  a:\n    command: x\n');
    addServerToFile(path, 'b', { command: 'y' });
    expect(read(path)).toBe('mcpServers:\n  a:\n    command: x\n  b:\n    command: y\n');
  });
});

describe('addServerToFile / removeServerFromFile on JSON', () => {
  it('writes a Claude file under mcpServers, keeping other keys in order', () => {
    const path = file(
      'claude_desktop_config.json',
      '{"globalShortcut": "x", "mcpServers": {"a": {"command": "x"}}, "z": 1}',
    );
    addServerToFile(path, 'web', { url: 'https://w/mcp', headers: { A: '${env:A}' } });
    expect(JSON.parse(read(path))).toEqual({
      globalShortcut: 'x',
      mcpServers: { a: { command: 'x' }, web: { url: 'https://w/mcp', headers: { A: '${env:A}' } } },
      z: 1,
    });
    expect(Object.keys(JSON.parse(read(path)))).toEqual(['globalShortcut', 'mcpServers', 'z']);
    expect(read(path).startsWith('{\n  "globalShortcut": "x",\n')).toBe(true);
    expect(read(path).endsWith('}\n')).toBe(true);
  });

  it('writes a typed entry to a VS Code file', () => {
    const path = file('mcp.json', '{"servers": {}, "inputs": []}');
    addServerToFile(path, 'st', { command: 'x' });
    addServerToFile(path, 'web', { url: 'https://w/mcp' });
    expect(JSON.parse(read(path)).servers).toEqual({
      st: { type: 'stdio', command: 'x' },
      web: { type: 'http', url: 'https://w/mcp' },
    });
  });

  it('removes from a Claude file by the normalised id', () => {
    const path = file('config.json', '{"mcpServers": {"GitHub": {"command": "x"}, "b": {"command": "y"}}}');
    expect(removeServerFromFile(path, 'github')).toBe(true);
    expect(JSON.parse(read(path))).toEqual({ mcpServers: { b: { command: 'y' } } });
  });

  it('creates a missing JSON file in Carte format', () => {
    const path = file('carte.json');
    addServerToFile(path, 'a', { command: 'x', args: [] });
    expect(read(path)).toBe('{\n  "servers": {\n    "a": {\n      "command": "x"\n    }\n  }\n}\n');
  });
});
