import { describe, expect, it } from 'vitest';
import type { DownstreamEvents } from '../gateway/index.js';
import { ListenHolds, listenMessage } from './stdio-listen.js';

/** The events seam, recording what reaches it; `refuse` names URIs whose subscribe fails. */
function recording(refuse: string[] = []) {
  const calls: string[] = [];
  const events: DownstreamEvents = {
    setLevel: () => undefined,
    subscribe: (uri) => {
      calls.push(`subscribe ${uri}`);
      return refuse.includes(uri) ? Promise.reject(new Error(`no ${uri}`)) : Promise.resolve();
    },
    unsubscribe: (uri) => {
      calls.push(`unsubscribe ${uri}`);
      return Promise.resolve();
    },
    close: () => void calls.push('close'),
  };
  return { events, calls };
}

describe('ListenHolds', () => {
  it('subscribes a URI for its first listen and releases it with its last', async () => {
    const { events, calls } = recording();
    const holds = new ListenHolds(events);
    await holds.open(1, ['a', 'b', 'a']);
    await holds.open('two', ['a']);
    holds.close(1);
    expect(calls).toEqual(['subscribe a', 'subscribe b', 'unsubscribe b']);
    expect(holds.has(1)).toBe(false);
    holds.close('two');
    expect(calls.at(-1)).toBe('unsubscribe a');
  });

  it('takes all of a listen or none: a refused URI releases the ones before it', async () => {
    const { events, calls } = recording(['bad']);
    const holds = new ListenHolds(events);
    await expect(holds.open(1, ['a', 'bad', 'c'])).rejects.toThrow('no bad');
    expect(calls).toEqual(['subscribe a', 'subscribe bad', 'unsubscribe a']);
    expect(holds.has(1)).toBe(false);
  });

  it('closes the session with the connection', async () => {
    const { events, calls } = recording();
    const holds = new ListenHolds(events);
    await holds.open(1, ['a']);
    holds.closeAll();
    expect(calls).toEqual(['subscribe a', 'close']);
  });
});

describe('listenMessage', () => {
  it.each([
    [
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'subscriptions/listen',
        params: { notifications: { resourceSubscriptions: ['x', 4] } },
      },
      { id: 3, uris: ['x'] },
    ],
    [
      {
        jsonrpc: '2.0',
        id: 'l',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true } },
      },
      { id: 'l', uris: [] },
    ],
    [{ jsonrpc: '2.0', method: 'subscriptions/listen', params: {} }, undefined],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, undefined],
  ])('%j', (message, expected) => {
    expect(listenMessage(message)).toEqual(expected);
  });
});
