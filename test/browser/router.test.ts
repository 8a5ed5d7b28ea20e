import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { AUDIT_OUTCOMES, parseRoute } from '../../web/src/router.js';

// The page's hash routes (pure, so tested here without a browser).
describe('parseRoute', () => {
  it.each([
    ['', { view: 'home' }],
    ['#/', { view: 'home' }],
    ['#/category/web', { view: 'category', id: 'web' }],
    ['#/server/my%20server', { view: 'server', id: 'my server' }],
    ['#/tool/everything/echo', { view: 'tool', key: 'everything/echo' }],
    ['#/tool/gh/create%2Fissue', { view: 'tool', key: 'gh/create/issue' }],
    ['#/search?q=add+two%20numbers', { view: 'search', q: 'add two numbers' }],
    ['#/search', { view: 'search', q: '' }],
    ['#/servers', { view: 'servers' }],
    ['#/approvals', { view: 'approvals' }],
    ['#/tokens', { view: 'tokens' }],
    [
      '#/activity',
      { view: 'activity', filters: { range: 'hour', tool: '', outcome: '', subject: '', since: '' } },
    ],
    [
      '#/activity?range=week&tool=a%2Fb&outcome=ok&subject=alice%40example.com&since=24h',
      {
        view: 'activity',
        filters: { range: 'week', tool: 'a/b', outcome: 'ok', subject: 'alice@example.com', since: '24h' },
      },
    ],
    [
      '#/activity?range=year',
      { view: 'activity', filters: { range: 'hour', tool: '', outcome: '', subject: '', since: '' } },
    ],
    ['#/tokens/x', { view: 'missing', hash: '#/tokens/x' }],
    ['#/tool/only-server', { view: 'missing', hash: '#/tool/only-server' }],
    ['#/category/a/b', { view: 'missing', hash: '#/category/a/b' }],
    ['#/nope', { view: 'missing', hash: '#/nope' }],
    ['#/category/%E0%A4%A', { view: 'missing', hash: '#/category/%E0%A4%A' }],
  ])('%s', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });
});

// A call cancelled or refused as busy is in the audit log, so the outcome filter must offer it:
// every ActivityOutcome (src/store) plus the running state.
describe('AUDIT_OUTCOMES', () => {
  it('are ok, tool_error, started, interrupted and every Carte error code, once each', () => {
    expect([...AUDIT_OUTCOMES].sort()).toEqual(
      ['ok', 'tool_error', 'started', 'interrupted', ...Object.keys(ERROR_CODES)].sort(),
    );
  });
});
