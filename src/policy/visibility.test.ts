import { describe, expect, it } from 'vitest';
import { policyTool, VisibilityPolicy } from './index.js';

describe('VisibilityPolicy', () => {
  const tools = ['a/x', 'a/y', 'b/z', 'gone/w'].map(policyTool);
  const policy = VisibilityPolicy.compute({
    servers: [
      { id: 'a', enabled: true },
      { id: 'b', enabled: false },
    ],
    tools,
  });

  it.each([
    ['a/x', true, true],
    ['b/z', true, false],
    ['gone/w', false, false],
    ['nope/q', false, false],
  ])('%s: visible %s, listed %s', (key, visible, listed) => {
    expect(policy.canSee(key)).toBe(visible);
    expect(policy.isListed(key)).toBe(listed);
  });

  it('draws suggestions only from visible keys, sorted', () => {
    expect(policy.visibleKeys()).toEqual(['a/x', 'a/y', 'b/z']);
  });

  it('splits keys at the first slash (tool names may contain one)', () => {
    expect(policyTool('srv/dir/name')).toEqual({ key: 'srv/dir/name', server: 'srv', name: 'dir/name' });
  });
});
