import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile, parseConfigText } from '../index.js';

const env = { GITHUB_TOKEN: 'ghp_secret', HOST: 'example.com', EMPTY: '' };
const yaml = (text: string) => parseConfigText(text, { path: '/cfg/carte.yaml', env, dataDir: '/data' });
const json = (text: string) => parseConfigText(text, { path: '/cfg/carte.json', env, dataDir: '/data' });

describe('Carte format: defaults', () => {
  it('fills every default and tags the kind', () => {
    const r = yaml('servers:\n  fs:\n    command: npx\n  web:\n    url: https://example.com/mcp\n');
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [], format: 'carte', path: '/cfg/carte.yaml' });
    expect(r.config).toEqual({
      servers: {
        fs: {
          kind: 'stdio',
          command: 'npx',
          args: [],
          env: {},
          enabled: true,
          timeoutMs: 60000,
          discoveryTimeoutMs: 30000,
          idleTimeoutMs: 300000,
          maxConcurrency: 16,
          maxQueue: 64,
          trust: { pin: true },
          sandbox: false,
        },
        web: {
          kind: 'remote',
          url: 'https://example.com/mcp',
          headers: {},
          enabled: true,
          timeoutMs: 60000,
          discoveryTimeoutMs: 30000,
          idleTimeoutMs: 300000,
          maxConcurrency: 16,
          maxQueue: 64,
          trust: { pin: true },
        },
      },
      search: { strategy: 'lexical' },
      limits: { maxSchemaBytes: 65536, maxResultBytes: 8388608 },
      rules: [],
      sandbox: { default: false },
      exposure: {
        mode: 'meta',
        maxTools: 50,
        code: { enabled: false, timeoutMs: 30000, memoryMb: 64, maxCalls: 200, maxOutputTokens: 4000 },
      },
      menu: { hotList: 12, halfLifeDays: 7 },
      audit: { arguments: 'digest', retentionDays: 90 },
      auth: {},
      registration: { allow: { commands: [], packages: [], hosts: [] }, agentRequests: false },
      http: {
        port: 7777,
        host: '127.0.0.1',
        allowedOrigins: [],
        maxSessions: 1000,
        trustProxy: false,
        sessionIdleMinutes: 30,
      },
      store: { leaseSeconds: 60 },
    });
  });

  it.each([
    ['an empty file', ''],
    ['only a comment', '# nothing yet\n'],
    ['empty sections', 'servers:\nsearch:\nlimits:\n'],
  ])('reads %s as no servers', (_name, text) => {
    expect(yaml(text)).toMatchObject({ ok: true, config: { servers: {}, search: { strategy: 'lexical' } } });
  });

  it('reads the exposure block', () => {
    const r = yaml('exposure:\n  mode: direct\n');
    expect(r).toMatchObject({ ok: true, config: { exposure: { mode: 'direct', maxTools: 50 } } });
  });

  it('reads JSON by extension, with comments and trailing commas', () => {
    const r = json('{\n  // ours\n  "servers": { "a": { "command": "x", "args": ["1",], }, },\n}');
    expect(r.ok).toBe(true);
    expect(r.config?.servers.a).toMatchObject({ kind: 'stdio', args: ['1'] });
  });

  it('keeps a relative cwd relative to the config file', () => {
    const r = yaml('servers:\n  a:\n    command: x\n    cwd: tools\n  b:\n    command: x\n    cwd: /abs\n');
    expect(r.config?.servers.a).toMatchObject({ cwd: '/cfg/tools' });
    expect(r.config?.servers.b).toMatchObject({ cwd: '/abs' });
  });
});

describe('malformed files', () => {
  it.each<[string, string, string, string]>([
    [
      'YAML duplicate key',
      'carte.yaml',
      'servers:\n  a:\n    command: x\n  a:\n    command: y\n',
      'duplicate key "a" at line 4, column 3',
    ],
    [
      'YAML bad indent',
      'carte.yaml',
      'servers:\n  a: [1\n',
      'invalid YAML at line 3, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
    [
      'YAML tab indent',
      'carte.yaml',
      'servers:\n\ta: 1\n',
      'invalid YAML at line 2, column 1: Tabs are not allowed as indentation',
    ],
    [
      'JSON missing comma',
      'carte.json',
      '{\n  "servers": {}\n  "search": {}\n}',
      'invalid JSON at line 3, column 3: unexpected "\\""; expected "," or "}"',
    ],
    [
      'JSON duplicate key',
      'carte.json',
      '{"servers": {"a": {"command": "x"},\n "a": {}}}',
      'invalid JSON at line 2, column 2: duplicate key "a"',
    ],
    [
      'JSON unterminated string',
      'carte.json',
      '{"servers": {"a',
      'invalid JSON at line 1, column 14: unterminated string',
    ],
    [
      'JSON empty',
      'carte.json',
      '',
      'invalid JSON at line 1, column 1: unexpected end of input; expected a value',
    ],
    [
      'unknown extension',
      'carte.toml',
      'a = 1',
      'unsupported config file extension ".toml"; use .yaml, .yml or .json',
    ],
  ])('%s', (_name, file, text, message) => {
    const r = parseConfigText(text, { path: `/cfg/${file}`, env });
    expect(r).toMatchObject({ ok: false, errors: [{ path: '', message }] });
  });
});

describe('loadConfigFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-load-'));

  it('loads a file from disk', () => {
    const path = join(dir, 'ok.yaml');
    writeFileSync(path, 'servers:\n  a:\n    command: x\n');
    expect(loadConfigFile(path, { env })).toMatchObject({ ok: true, path, format: 'carte' });
  });

  it.each([
    ['missing', join(dir, 'nope.yaml'), `config file "${join(dir, 'nope.yaml')}" does not exist`],
    ['a directory', join(dir, 'sub.yaml'), `config file "${join(dir, 'sub.yaml')}" is a directory`],
  ])('reports a %s file as an error', (_name, path, message) => {
    mkdirSync(join(dir, 'sub.yaml'), { recursive: true });
    expect(loadConfigFile(path, { env })).toEqual({
      ok: false,
      errors: [{ path: '', message }],
      warnings: [],
      path,
      format: 'carte',
    });
  });
});
