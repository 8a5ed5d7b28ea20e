import { describe, expect, it } from 'vitest';
import { allowedAtOnce, checkProposal, requestedNetwork, withGrant } from '../index.js';

const messages = (server: unknown) => checkProposal('s', server).map((p) => `${p.path}: ${p.message}`);

describe('a proposal and the sandbox (issue 42)', () => {
  it.each([
    ['asks for hosts', { command: 'x', sandbox: { network: ['api.example.com'] } }, []],
    ['sandbox: true', { command: 'x', sandbox: true }, []],
    [
      'sandbox: false',
      { command: 'x', sandbox: false },
      ['servers.s.sandbox: cannot be proposed as false: registered servers always run sandboxed'],
    ],
    [
      'its own limits',
      { command: 'x', sandbox: { network: [], memoryMb: 4096 } },
      [
        'servers.s.sandbox.memoryMb: cannot be proposed; only sandbox.network (the hosts it asks to reach) may be',
      ],
    ],
  ])('%s', (_, server, want) => {
    expect(messages(server)).toEqual(want);
  });

  it('reads the hosts asked for', () => {
    expect(requestedNetwork({ command: 'x', sandbox: { network: ['a.example.com'] } })).toEqual([
      'a.example.com',
    ]);
    expect(requestedNetwork({ command: 'x' })).toEqual([]);
  });

  it('a proposal asking for hosts is never approved at once by the allowlist', () => {
    const allow = { commands: ['x'], packages: [], hosts: [] };
    expect(allowedAtOnce({ command: 'x' }, allow)).toMatchObject({ list: 'commands', pattern: 'x' });
    expect(allowedAtOnce({ command: 'x', sandbox: { network: ['a.example.com'] } }, allow)).toBeUndefined();
  });

  it('writes the grant, not the request, keeping sandbox.default limits; remote servers as proposed', () => {
    const asked = { command: 'x', sandbox: { network: ['a.example.com', 'b.example.com'] } };
    expect(withGrant(asked, ['a.example.com'], false)).toEqual({
      command: 'x',
      sandbox: { network: ['a.example.com'] },
    });
    const def = { network: ['everywhere.example.com'], allowWrite: [], denyRead: [], memoryMb: 256 };
    expect(withGrant({ command: 'x' }, [], def)).toEqual({
      command: 'x',
      sandbox: { memoryMb: 256, network: [] },
    });
    expect(withGrant({ url: 'https://h.example.com/mcp' }, ['a.example.com'], true)).toEqual({
      url: 'https://h.example.com/mcp',
    });
  });
});
