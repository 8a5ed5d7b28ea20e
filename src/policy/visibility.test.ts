import { describe, expect, it } from 'vitest';
import {
  compileRules,
  policyTool,
  UNFILED_CATEGORY,
  VisibilityPolicy,
  type StoredCategory,
} from './index.js';

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

describe('VisibilityPolicy with rules and stored categories', () => {
  const tools = ['gh/create_issue', 'gh/delete_repo', 'fs/read_file', 'fs/write_file'].map(policyTool);
  const servers = [
    { id: 'gh', enabled: true },
    { id: 'fs', enabled: true },
  ];
  const categories = new Map([
    ['gh/create_issue', { category: 'code' as const, tags: ['github'] }],
    ['fs/read_file', { category: 'files' as const, tags: ['read'] }],
  ]);

  it('hides what a rule hides, and pins only visible tools', () => {
    const rules = compileRules([
      { match: '*delete*', enabled: false, pin: true },
      { match: 'fs/*', pin: true, tags: ['local'], category: 'data' },
    ]);
    const p = VisibilityPolicy.compute({ servers, tools, rules, categories });
    expect(p.canSee('gh/delete_repo')).toBe(false);
    expect(p.verdict('gh/delete_repo')).toMatchObject({ decidedBy: 0, pinned: false });
    expect(p.pinnedKeys()).toEqual(['fs/read_file', 'fs/write_file']);
    expect(p.verdict('fs/read_file')).toMatchObject({ category: 'data', tags: ['local', 'read'] });
    expect(p.verdict('gh/create_issue')).toMatchObject({ category: 'code', tags: ['github'] });
    expect(p.verdict('gh/delete_repo')!.category).toBe(UNFILED_CATEGORY);
    expect(p.visibleKeys()).not.toContain('gh/delete_repo');
  });

  it('whitelist mode: a lone enabled:true rule hides every tool it does not match', () => {
    const rules = compileRules([{ match: 'read_*', enabled: true }]);
    const p = VisibilityPolicy.compute({ servers, tools, rules });
    expect(p.listedKeys()).toEqual(['fs/read_file']);
  });

  it('fingerprints what menus show: equal for equal input, different when a category moves', () => {
    const a = VisibilityPolicy.compute({ servers, tools, categories });
    const b = VisibilityPolicy.compute({ servers, tools: [...tools].reverse(), categories });
    expect(a.fingerprint()).toBe(b.fingerprint());
    const moved = new Map<string, StoredCategory>(categories).set('fs/read_file', {
      category: 'data',
      tags: [],
    });
    expect(VisibilityPolicy.compute({ servers, tools, categories: moved }).fingerprint()).not.toBe(
      a.fingerprint(),
    );
  });
});
