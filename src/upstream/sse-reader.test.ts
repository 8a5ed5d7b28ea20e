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
      'comments, id and retry ignored; empty events dropped',
      [': hi\nid: 3\nretry: 10\n\n\ndata: z\n\n'],
      ['z'],
    ],
    ['no event without its blank line', ['data: unfinished\n'], []],
  ])('%s', (_, chunks, events) => {
    expect(read(chunks)).toEqual(events);
  });
});
