import { describe, expect, it } from 'vitest';
import { launcherAdvice } from '../index.js';

const NPX =
  'server "x" starts through npx, which needs npm\'s registry and cache: sandboxed, it needs sandbox: {network: [registry.npmjs.org], allowWrite: [~/.npm]} (docs/sandbox.md)';
const UVX =
  'server "x" starts through uvx, which needs PyPI and uv\'s cache: sandboxed, it needs sandbox: {network: [pypi.org, files.pythonhosted.org], allowWrite: [~/.cache/uv]} (docs/sandbox.md)';
const DOCKER =
  'server "x" starts through docker, whose socket is a way out of any sandbox: keep it "sandbox: false" and rely on Docker\'s own isolation, knowingly (docs/sandbox.md)';

describe('launcherAdvice', () => {
  it.each([
    ['npx', NPX],
    ['/usr/local/bin/npx', NPX],
    ['C:\\Program Files\\nodejs\\npx.cmd', NPX],
    ['uvx', UVX],
    ['docker', DOCKER],
    ['/usr/bin/docker', DOCKER],
    ['node', null],
    ['npx-like', null],
    ['uv', null],
  ])('%s', (command, advice) => {
    expect(launcherAdvice('x', command)).toBe(advice);
  });
});
