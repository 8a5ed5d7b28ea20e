import { Client, InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { resultSchema } from './result-validator.js';

// A scripted peer: it answers initialize, refuses anything else it does not know, and answers
// tools/call with a well-formed result for "good" and a malformed one for "bad" (a real server
// built on the SDK could not send it).
async function connectedClient(): Promise<Client> {
  const [clientSide, peer] = InMemoryTransport.createLinkedPair();
  const answer = (id: unknown, result: unknown) =>
    void peer.send({ jsonrpc: '2.0', id, result } as unknown as JSONRPCMessage);
  peer.onmessage = (m) => {
    const msg = m as { id?: number; method?: string; params?: Record<string, unknown> };
    if (msg.id === undefined) return;
    if (msg.method === 'initialize') {
      answer(msg.id, {
        protocolVersion: msg.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'scripted', version: '0' },
      });
    } else if (msg.method === 'tools/call') {
      const bad = msg.params?.name === 'bad';
      answer(msg.id, bad ? { content: 'not a list' } : { content: [{ type: 'text', text: 'hi' }] });
    } else {
      void peer.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
    }
  };
  await peer.start();
  const client = new Client({ name: 'result-validator-test', version: '0' });
  await client.connect(clientSide);
  return client;
}

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
});

describe('resultSchema', () => {
  it("accepts and rejects tools/call results exactly as the SDK's own check", async () => {
    client = await connectedClient();
    const schema = resultSchema(client, 'tools/call');
    expect(schema).toBeDefined();
    const call = (name: string, withSchema: boolean) => {
      const req = { method: 'tools/call' as const, params: { name, arguments: {} } };
      return withSchema ? client!.request(req, schema!) : client!.request(req);
    };
    expect(await call('good', true)).toEqual(await call('good', false));
    const ours = await call('bad', true).catch((e: Error) => e.message);
    const sdks = await call('bad', false).catch((e: Error) => e.message);
    expect(ours).toMatch(/^Invalid result for tools\/call: /);
    expect(ours).toBe(sdks);
  });

  it('is undefined for a method the era has no result schema for', async () => {
    client = await connectedClient();
    expect(resultSchema(client, 'acme/unknown')).toBeUndefined();
  });
});
