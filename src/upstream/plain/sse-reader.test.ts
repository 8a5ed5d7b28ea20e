import { describe, expect, it } from 'vitest';
import { SseReader } from './sse-reader.js';

/** Every event's data when `chunks` arrive one by one. */
function read(chunks: string[]): string[] {
  const out: string[] = [];
  const reader = new SseReader((d) => out.push(d));
  for (const c of chunks) reader.push(c);
  return out;
}

describe('SseReader', () => {
  it.each([
    ['one event', ['event: message\ndata: {"a":1}\n\n'], ['{"a":1}']],
    ['data lines joined, one space dropped', ['data:x\ndata:  y\n\n'], ['x\n y']],
    ['CRLF and CR line ends', ['data: a\r\n\r\ndata: b\r\r'], ['a', 'b']],
    ['a CRLF split across chunks', ['data: a\r', '\n\r', '\n'], ['a']],
    ['an event split mid-line', ['da', 'ta: {"i', 'd":2}\n', '\n'], ['{"id":2}']],
    [
      'comments, id and retry are no data; empty events dropped',
      [': hi\nid: 3\nretry: 10\n\n\ndata: z\n\n'],
      ['z'],
    ],
    ['no event without its blank line', ['data: unfinished\n'], []],
  ])('%s', (_, chunks, events) => {
    expect(read(chunks)).toEqual(events);
  });

  it.each([
    ['the last id and retry', ['id: e-1\nretry: 500\ndata: \n\nid: e-2\ndata: x\n\n'], 'e-2', 500],
    ['a retry that is not all digits is ignored', ['retry: 5s\nid:7\n\n'], '7', undefined],
    ['an id with NUL is ignored', ['id: a\u0000b\n\n'], undefined, undefined],
    ['an empty id resets it', ['id: 1\n\nid\n\n'], '', undefined],
  ])('keeps %s for a resumption', (_, chunks, id, retry) => {
    const reader = new SseReader(() => undefined);
    for (const c of chunks) reader.push(c);
    expect(reader.lastEventId).toBe(id);
    expect(reader.retryMs).toBe(retry);
  });
});
