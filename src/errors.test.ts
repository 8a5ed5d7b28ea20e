import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.js';

describe('the error code table', () => {
  it("gives each of Carte's own JSON-RPC codes (-32000 to -32099) to one error code only", () => {
    const own = Object.entries(ERROR_CODES).filter(([, c]) => c.jsonrpc <= -32000 && c.jsonrpc >= -32099);
    const byCode = new Map<number, string[]>();
    for (const [name, c] of own) byCode.set(c.jsonrpc, [...(byCode.get(c.jsonrpc) ?? []), name]);
    expect([...byCode.values()].filter((names) => names.length > 1)).toEqual([]);
  });
});
