import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { envelopeProblem, guardStdin, plainCandidate, refuseLine } from './guard-transport.js';

const request = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
const TOKEN = 'params._meta.progressToken must be a string or an integer';

describe('envelopeProblem', () => {
  it.each([
    [request(undefined), undefined],
    [request({}), undefined],
    [request({ _meta: {} }), undefined],
    [request({ _meta: { progressToken: 'p' } }), undefined],
    [request({ _meta: { progressToken: 7 } }), undefined],
    [request({ _meta: { progressToken: { a: 1 } } }), TOKEN],
    [request({ _meta: { progressToken: 1.5 } }), TOKEN],
    [request({ _meta: { progressToken: null } }), TOKEN],
    [request({ _meta: [] }), 'params._meta must be an object'],
    [{ jsonrpc: '2.0', method: 'notifications/progress', params: { _meta: 5 } }, undefined], // a notification
    [{ jsonrpc: '2.0', id: 1, result: {} }, undefined], // a response
    ['garbage', undefined],
  ])('%j -> %j', (message, problem) => {
    expect(envelopeProblem(message)).toBe(problem);
  });
});

describe('refuseLine', () => {
  it.each([
    [
      '{"jsonrpc":"2.0","id":"a","method":"x","params":{"_meta":{"progressToken":{}}}}',
      { id: 'a', problem: TOKEN },
    ],
    ['{"jsonrpc":"2.0","id":3,"method":"x","params":{"_meta":{"progressToken":"t"}}}', undefined],
    ['{"jsonrpc":"2.0","id":null,"method":"x","params":{"_meta":[]}}', undefined], // no id to answer
    ['{"_meta": not json', undefined],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', undefined],
  ])('%s', (line, expected) => {
    expect(refuseLine(line)).toEqual(expected);
  });
});

describe('guardStdin', () => {
  it('answers bad requests, passes every other byte on, across chunk boundaries', async () => {
    const input = new PassThrough();
    const refused: unknown[] = [];
    const out = guardStdin(input, { refuse: (a) => refused.push(a) });
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const good = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n';
    const bad = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":[1]}}}\n';
    const all = `${good}${bad}not json\n${good}partial`;
    for (let i = 0; i < all.length; i += 7) input.write(all.slice(i, i + 7));
    input.end();
    await new Promise((resolve) => out.on('end', resolve));
    expect(Buffer.concat(chunks).toString()).toBe(`${good}not json\n${good}partial`);
    expect(refused).toEqual([{ id: 2, code: -32600, message: `Invalid Request: ${TOKEN}` }]);
  });

  it('offers parsed plain-call lines to take and drops the ones it took', async () => {
    const input = new PassThrough();
    const offered: unknown[] = [];
    const out = guardStdin(input, {
      refuse: () => undefined,
      take: () => (message) => (offered.push(message), (message as { id: number }).id === 1),
    });
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const call = (id: number) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"call_tool"}}\n`;
    const list = '{"jsonrpc":"2.0","id":3,"method":"tools/list"}\n';
    const all = `${call(1)}${list}${call(2)}`;
    for (let i = 0; i < all.length; i += 5) input.write(all.slice(i, i + 5));
    input.end();
    await new Promise((resolve) => out.on('end', resolve));
    expect(Buffer.concat(chunks).toString()).toBe(`${list}${call(2)}`);
    expect(offered).toEqual([JSON.parse(call(1)), JSON.parse(call(2))]);
  });
});

describe('plainCandidate', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool"}}', true],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{},"name":"call_tool"}}', false], // not plain
    ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', false],
    ['{"method":"tools/call" not json', false],
  ])('%s -> parsed: %s', (line, parsed) => {
    expect(plainCandidate(line) !== undefined).toBe(parsed);
  });
});
