import { describe, expect, it } from 'vitest';
import { parseConfigText, type StdioServerConfig } from '../index.js';

const env = { HOME: '/home/u' };
const load = (text: string) => parseConfigText(text, { path: '/cfg/carte.yaml', env, dataDir: '/data' });
const sandboxOf = (text: string, id = 'x') =>
  (load(text).config?.servers[id] as StdioServerConfig | undefined)?.sandbox;

describe('config: sandbox', () => {
  it('is off by default', () => {
    expect(sandboxOf('servers:\n  x:\n    command: a\n')).toBe(false);
  });

  it('true gives the defaults: no network, its state dir, the built-in denyRead list', () => {
    const s = sandboxOf('servers:\n  x:\n    command: a\n    sandbox: true\n');
    expect(s).toMatchObject({ network: [], allowWrite: [], stateDir: '/data/servers/x' });
    const deny = (s as { denyRead: string[] }).denyRead;
    for (const p of ['/home/u/.ssh', '/home/u/.aws', '/home/u/.gnupg', '/home/u/.kube', '/home/u/.docker'])
      expect(deny).toContain(p);
    expect(deny).toContain('/home/u/.config/gcloud');
    expect(deny).toContain('/home/u/.mozilla');
    expect(deny).toContain('/home/u/.config/carte');
    expect(deny).toContain('/data');
  });

  it('hides the loaded config file itself when no built-in entry covers it', () => {
    const text = 'servers:\n  x:\n    command: a\n    sandbox: true\n';
    const denyOf = (path: string, body = text) =>
      (parseConfigText(body, { path, env, dataDir: '/data' }).config?.servers.x as StdioServerConfig)
        .sandbox as { denyRead: string[] };
    expect(denyOf('/cfg/carte.yaml').denyRead).toContain('/cfg/carte.yaml');
    const json = '{"servers": {"x": {"command": "a", "sandbox": true}}}';
    expect(denyOf('/home/u/work/carte.json', json).denyRead).toContain('/home/u/work/carte.json');
    const user = denyOf('/home/u/.config/carte/carte.yaml').denyRead;
    expect(user).toContain('/home/u/.config/carte');
    expect(user).not.toContain('/home/u/.config/carte/carte.yaml');
  });

  it('expands ~/, ${dataDir} and relative paths, and keeps limits and network', () => {
    const s = sandboxOf(
      [
        'servers:',
        '  x:',
        '    command: a',
        '    sandbox:',
        '      network: [api.example.com, "localhost:8080", "*.npmjs.org"]',
        '      allowWrite: [~/notes, "${dataDir}/shared", out]',
        '      denyRead: [/srv/secret]',
        '      memoryMb: 256',
        '      maxProcesses: 32',
      ].join('\n'),
    );
    expect(s).toMatchObject({
      network: ['api.example.com', 'localhost:8080', '*.npmjs.org'],
      allowWrite: ['/home/u/notes', '/data/shared', '/cfg/out'],
      memoryMb: 256,
      maxProcesses: 32,
    });
    expect((s as { denyRead: string[] }).denyRead).toContain('/srv/secret');
  });

  it('sandbox.default applies to servers without their own key; false opts out', () => {
    const text = [
      'sandbox:',
      '  default: {network: [registry.npmjs.org], memoryMb: 512}',
      'servers:',
      '  a: {command: a}',
      '  b: {command: b, sandbox: false}',
      '  c: {command: c, sandbox: true}',
      '  d: {command: d, sandbox: {maxProcesses: 8}}',
    ].join('\n');
    expect(sandboxOf(text, 'a')).toMatchObject({ network: ['registry.npmjs.org'], memoryMb: 512 });
    expect(sandboxOf(text, 'b')).toBe(false);
    expect(sandboxOf(text, 'c')).toMatchObject({ network: ['registry.npmjs.org'], memoryMb: 512 });
    expect(sandboxOf(text, 'd')).toMatchObject({ network: [], maxProcesses: 8 });
    expect(sandboxOf(text, 'd')).not.toHaveProperty('memoryMb');
  });

  it.each([
    [
      'on a remote server',
      'servers:\n  x:\n    url: https://a\n    sandbox: true\n',
      'servers.x.sandbox',
      '"sandbox" only applies to a stdio server (one with "command")',
    ],
    [
      'a bad network entry',
      'servers:\n  x:\n    command: a\n    sandbox: {network: ["http://a.com"]}\n',
      'servers.x.sandbox.network.0',
      'invalid value "http://a.com": expected a host, host:port or *.example.com',
    ],
    [
      'a memory limit too small',
      'servers:\n  x:\n    command: a\n    sandbox: {memoryMb: 4}\n',
      'servers.x.sandbox.memoryMb',
      expect.stringContaining('16'),
    ],
    [
      'an unknown key',
      'servers:\n  x:\n    command: a\n    sandbox: {netwrk: []}\n',
      'servers.x.sandbox.netwrk',
      'unknown key "netwrk"; did you mean "network"?',
    ],
    [
      'an unknown top-level sandbox key',
      'sandbox: {defaults: true}\n',
      'sandbox.defaults',
      'unknown key "defaults"; did you mean "default"?',
    ],
  ])('refuses %s', (_what, text, path, message) => {
    const r = load(text);
    expect(r.config).toBeUndefined();
    expect(r.errors).toEqual([{ path, message }]);
  });
});
