import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT, referenceEntry, tempDir } from '../helpers.js';

// Slow: run_code through the built CLI (`carte serve` over stdio, `npm test` builds first). The
// bundle keeps @jitl/* external (scripts/bundle-cli.mjs): the interpreter's .wasm must be found
// from dist/carte at run time, as an installed Carte would.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
const config = join(tmp.dir, 'carte.yaml');

beforeAll(() => {
  writeFileSync(
    config,
    [
      'servers:',
      '  everything:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(referenceEntry('server-everything'))}, stdio]`,
      'exposure:',
      '  code: { enabled: true, timeoutMs: 2000, memoryMb: 16 }',
      '',
    ].join('\n'),
  );
});
afterAll(() => tmp.cleanup());

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]!.text;

describe('run_code through carte serve over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'e2e', version: '0' });
    const args = [BIN, 'serve', '--config', config, '--data-dir', join(tmp.dir, 'data')];
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
  });
  afterAll(async () => client.close());

  it('lists run_code and runs a script whose calls reach the upstream', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('run_code');
    const r = await client.callTool({
      name: 'run_code',
      arguments: {
        code: `const out = []; for (const m of ['a', 'b']) out.push(await call('everything/echo', { message: m })); return out`,
      },
    });
    expect(JSON.parse(text(r))).toEqual(['Echo: a', 'Echo: b']);
  });

  it('gives a signature, and ends a memory bomb and an endless loop naming the limit, answering at once after', async () => {
    const sig = await client.callTool({
      name: 'describe_tool',
      arguments: { key: 'everything/echo', format: 'typescript' },
    });
    expect(text(sig)).toContain('declare function call(key: "everything/echo", args: {');
    const bomb = await client.callTool({
      name: 'run_code',
      arguments: { code: 'const a = []; while (true) a.push({ i: a.length })' },
    });
    expect(bomb).toMatchObject({ isError: true });
    expect(text(bomb)).toBe('the script ran out of memory: its limit is 16 MB (exposure.code.memoryMb)');
    const loop = await client.callTool({ name: 'run_code', arguments: { code: 'while (true) {}' } });
    expect(text(loop)).toBe('the script ran past its time limit of 2000 ms (exposure.code.timeoutMs)');
    const after = await client.callTool({ name: 'run_code', arguments: { code: 'return 1 + 1' } });
    expect(text(after)).toBe('2');
  });
});
