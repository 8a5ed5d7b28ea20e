// Slow: the 2026-07-28 era's resource subscriptions and per-request log levels through both faces
// (/mcp on a real socket, the built CLI's `carte serve` over stdio), with the prompts-logs fixture
// behind them in both upstream eras: `fx` speaks 2025 (subscribed with resources/subscribe, its
// log messages unasked), `fm` speaks 2026 (a listen stream upstream, a level on each request).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOG_LEVEL_META_KEY, type Client } from '@modelcontextprotocol/client';
import { FACES, openFaces, type Face, type Faces } from '../face-clients.js';

let faces: Faces;
const COUNTER = (id: string) => `carte://${id}/fixture%3A%2F%2Fcounter`;

beforeAll(async () => {
  faces = await openFaces([
    { id: 'fx', file: 'prompts-logs.mjs', env: { FIXTURE_ERA: 'legacy' } },
    { id: 'fm', file: 'prompts-logs.mjs' },
  ]);
});
afterAll(() => faces?.close());

async function connect(face: Face) {
  const connected = await faces.connect(face, `${face}-modern`, { versionNegotiation: { mode: 'auto' } });
  expect(connected.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return connected;
}

async function call(client: Client, key: string, args: Record<string, unknown> = {}, level?: string) {
  const result = await client.request({
    method: 'tools/call',
    params: {
      name: 'call_tool',
      arguments: { key, arguments: args },
      ...(level ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}),
    },
  });
  return (result.content as { text: string }[])[0]!.text;
}

describe.each(FACES)('%s face, 2026-07-28 era', (face) => {
  it('subscribes a 2025-era upstream for a listen stream, and unsubscribes when it closes', async () => {
    const { client, seen } = await connect(face);
    const uri = COUNTER('fx');
    const sub = await client.listen({ resourceSubscriptions: [uri] });
    expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [uri] });
    expect(await call(client, 'fx/touch')).toBe('subscribed');
    await vi.waitFor(() => expect(seen.updated).toContain(uri));
    expect(new Set(seen.updated)).toEqual(new Set([uri]));
    await sub.close();
    // Closing the stream is cancellation: the last holder gone, Carte unsubscribes upstream.
    await vi.waitFor(async () => expect(await call(client, 'fx/touch')).toBe('not subscribed'));
  });

  it('subscribes a 2026-era upstream with a listen stream of its own', async () => {
    const { client, seen } = await connect(face);
    const uri = COUNTER('fm');
    const sub = await client.listen({ resourceSubscriptions: [uri] });
    expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [uri] });
    // The upstream listen opens before the acknowledgement, but the fixture's SDK may register it
    // a moment later: touch until an update arrives.
    await vi.waitFor(async () => {
      expect(await call(client, 'fm/touch')).toBe('sent');
      expect(seen.updated).toContain(uri);
    }, 10_000);
    expect(new Set(seen.updated)).toEqual(new Set([uri]));
    await sub.close();
  });

  it('refuses a listen naming a resource of an unknown server, naming it', async () => {
    const { client } = await connect(face);
    const err = await client.listen({ resourceSubscriptions: ['carte://nope/x'] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32602, message: 'unknown server "nope"' });
  });

  it.each(['fx', 'fm'])(
    'relays %s log messages on the request that asked, at or above its level',
    async (id) => {
      const { client, seen } = await connect(face);
      expect(await call(client, `${id}/log`, { level: 'error', message: 'unasked' })).toBe('logged');
      expect(await call(client, `${id}/log`, { level: 'notice', message: 'too low' }, 'warning')).toBe(
        'logged',
      );
      expect(await call(client, `${id}/log`, { level: 'warning', message: 'for me' }, 'warning')).toBe(
        'logged',
      );
      expect(seen.logs).toEqual([{ level: 'warning', logger: `${id}/fixture`, data: 'for me' }]);
    },
  );
});
