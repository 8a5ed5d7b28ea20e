// surelyLegacy must never call a request legacy that the SDK's own classifier would not.
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { surelyLegacy } from './plain-call.js';

const call = (params: object, extra: object = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'call_tool', arguments: { key: 'a/b', arguments: {} }, ...params },
  ...extra,
});
const modernMeta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };

describe('surelyLegacy', () => {
  it.each([
    ['a plain call, no version header', call({}), {}, true],
    ['a plain call, 2025 header', call({}), { 'mcp-protocol-version': '2025-11-25' }, true],
    ['a plain call, 2024 header', call({}), { 'mcp-protocol-version': '2024-11-05' }, true],
    ['a plain call, modern header', call({}), { 'mcp-protocol-version': '2026-07-28' }, false],
    ['a plain call, unknown header', call({}), { 'mcp-protocol-version': '2099-01-01' }, false],
    ['a call with _meta', call({ _meta: { progressToken: 1 } }), {}, false],
    ['a modern envelope', call(modernMeta), { 'mcp-protocol-version': '2026-07-28' }, false],
    ['another tool', call({ name: 'search_tools' }), {}, false],
    ['an extra key', call({}, { extra: 1 }), {}, false],
    ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, {}, false],
  ])('%s -> %s, and the SDK agrees whenever it says true', async (_what, body, headers, expected) => {
    const h = new Headers({ 'content-type': 'application/json', ...headers });
    expect(surelyLegacy(h, body)).toBe(expected);
    const request = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: h,
      body: JSON.stringify(body),
    });
    if (expected) expect(await isLegacyRequest(request, body)).toBe(true);
  });
});
