import { describe, expect, it } from 'vitest';
import { parseConfigText, serverConfigHash, type ServerConfig } from '../index.js';

function server(yaml: string, env: Record<string, string> = {}, dataDir?: string): ServerConfig {
  const r = parseConfigText(`servers:\n  s:\n${yaml}`, { path: '/c/carte.yaml', env, dataDir });
  if (!r.config?.servers.s) throw new Error(JSON.stringify(r.errors));
  return r.config.servers.s;
}

const stdio = '    command: node\n    args: [a, b]\n    env: {A: "1", B: "2"}\n';
const remote = '    url: https://x/mcp\n    headers: {A: "1"}\n';

describe('serverConfigHash', () => {
  it('is a stable sha256 hex', () => {
    const hash = serverConfigHash(server(stdio));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(serverConfigHash(server(stdio))).toBe(hash);
  });

  it('ignores the order of env and header keys', () => {
    expect(serverConfigHash(server('    command: node\n    args: [a, b]\n    env: {B: "2", A: "1"}\n'))).toBe(
      serverConfigHash(server(stdio)),
    );
  });

  it.each([
    ['args', stdio, '    command: node\n    args: [a, c]\n    env: {A: "1", B: "2"}\n'],
    ['arg order', stdio, '    command: node\n    args: [b, a]\n    env: {A: "1", B: "2"}\n'],
    ['command', stdio, '    command: nodejs\n    args: [a, b]\n    env: {A: "1", B: "2"}\n'],
    ['an env value', stdio, '    command: node\n    args: [a, b]\n    env: {A: "1", B: "3"}\n'],
    ['cwd', stdio, `${stdio}    cwd: /tmp\n`],
    ['url', remote, '    url: https://y/mcp\n    headers: {A: "1"}\n'],
    ['a header', remote, '    url: https://x/mcp\n    headers: {A: "2"}\n'],
    ['transport', remote, `${remote}    transport: sse\n`],
  ])('changes with %s', (_name, before, after) => {
    expect(serverConfigHash(server(after))).not.toBe(serverConfigHash(server(before)));
  });

  it.each([
    ['timeoutMs', '    timeoutMs: 5000\n'],
    ['discoveryTimeoutMs', '    discoveryTimeoutMs: 5000\n'],
    ['enabled', '    enabled: false\n'],
    ['description', '    description: hello\n'],
  ])('does not change with %s', (_name, extra) => {
    expect(serverConfigHash(server(stdio + extra))).toBe(serverConfigHash(server(stdio)));
  });

  it('hashes resolved values: a changed variable changes it', () => {
    const text = '    command: node\n    env: {T: "${env:T}"}\n';
    expect(serverConfigHash(server(text, { T: 'a' }))).not.toBe(serverConfigHash(server(text, { T: 'b' })));
  });

  it('counts the data dir as ${dataDir}: replicas with data dirs of their own agree (a data dir written out differs)', () => {
    const text =
      '    command: node\n    args: ["${dataDir}/x.js"]\n    env: {F: "${dataDir}/m.json"}\n    cwd: "${dataDir}"\n';
    const a = server(text, {}, '/srv/r1/carte');
    expect(a.kind === 'stdio' && a.args).toEqual(['/srv/r1/carte/x.js']);
    expect(serverConfigHash(server(text, {}, '/srv/r2/carte'))).toBe(serverConfigHash(a));
    const written = '    command: node\n    args: [/srv/r3/x.js]\n    env: {F: "${dataDir}/m.json"}\n    cwd: "${dataDir}"\n';
    expect(serverConfigHash(server(written, {}, '/srv/r1/carte'))).not.toBe(serverConfigHash(a));
    const remote = '    url: "https://x/${env:P}"\n    headers: {D: "${dataDir}"}\n';
    expect(serverConfigHash(server(remote, { P: 'mcp' }, '/a'))).toBe(serverConfigHash(server(remote, { P: 'mcp' }, '/b')));
  });
});
