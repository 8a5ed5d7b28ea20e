import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../e2e/helpers.js';
import { Cleanup } from '../fixtures/harness.js';
import { isRecord, ServeProcess } from './serve-process.js';
import { garbage } from './wire-arbitraries.js';

// The MCP face over a real `carte serve` process (the built CLI: run `npm run build` first),
// fed raw bytes on stdin. Slow: spawns the CLI and the faults fixture behind it.
const META = ['search_tools', 'browse_tools', 'describe_tool', 'call_tool'];
const tmp = tempDir('carte-fuzz-stdio-');
const cleanup = new Cleanup();
const config = join(tmp.dir, 'carte.yaml');

beforeAll(() => {
  writeFileSync(
    config,
    [
      'servers:',
      '  faults:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(join(FIXTURES, 'faults.mjs'))}]`,
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await cleanup.run();
  tmp.cleanup();
});

let probes = 0;
/** A tools/list that must still be answered with the four meta-tools. */
async function probe(serve: ServeProcess, timeoutMs = 10_000): Promise<void> {
  const id = `probe-${++probes}`;
  const answer = await serve.call({ jsonrpc: '2.0', id, method: 'tools/list' } as { id: string }, timeoutMs);
  const tools = (answer.result as { tools?: Array<{ name: string }> } | undefined)?.tools;
  expect(
    tools?.map((t) => t.name),
    JSON.stringify(answer).slice(0, 300),
  ).toEqual(META);
}

/** Every stdout line is one JSON-RPC 2.0 message: a request, a notification or a response. */
function expectOnlyJsonRpc(serve: ServeProcess): void {
  for (const line of serve.lines()) {
    if (!line.json) throw new Error(`stdout has a line that is not JSON: ${line.text.slice(0, 200)}`);
    const m = line.value;
    const ok =
      isRecord(m) &&
      m.jsonrpc === '2.0' &&
      (typeof m.method === 'string' || ('id' in m && 'result' in m !== 'error' in m));
    expect(ok, `not a JSON-RPC message on stdout: ${JSON.stringify(m).slice(0, 200)}`).toBe(true);
  }
}

describe('carte serve fed raw garbage on stdin', () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await ServeProcess.start(cleanup, config, join(tmp.dir, 'data'));
  }, 60_000);

  it('keeps answering, and writes only JSON-RPC to stdout', async () => {
    await fc.assert(
      fc.asyncProperty(garbage, async (bytes) => {
        await serve.write(bytes);
        await probe(serve);
      }),
      { numRuns: 150 },
    );
    expect(serve.alive).toBe(true);
    expectOnlyJsonRpc(serve);
  }, 60_000);

  it('answers an unknown method with -32601 and a garbled call with a tool error', async () => {
    const unknown = await serve.call({ jsonrpc: '2.0', id: 'unknown-method', method: 'tools/lisst' } as {
      id: string;
    });
    expect(unknown.error).toMatchObject({ code: -32601 });
    await serve.write('{"jsonrpc":"2.0","id":"half","method":"tools/call","params":{"name":"sea\n');
    const call = {
      jsonrpc: '2.0',
      id: 'garbled',
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { query: { not: 'a string' } } },
    };
    expect((await serve.call(call)).result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'search_tools: "query" must be a string or a non-empty array of strings, not {"not":"a string"}',
        },
      ],
    });
    expectOnlyJsonRpc(serve);
  });

  // The SDK drops such a request with only an onerror (mcp-face.fuzz.test.ts pins that);
  // src/mcp/guard-transport.ts answers it, so the client never waits forever.
  it.each([
    [{ progressToken: { a: 1 } }, 'params._meta.progressToken must be a string or an integer'],
    [{ progressToken: 1.5 }, 'params._meta.progressToken must be a string or an integer'],
    ['not an object', 'params._meta must be an object'],
  ])('answers a request whose _meta is %j with Invalid Request', async (meta, reason) => {
    const call = {
      jsonrpc: '2.0',
      id: `bad-meta-${reason.length}-${JSON.stringify(meta).length}`,
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { query: 'echo' }, _meta: meta },
    };
    expect((await serve.call(call, 5_000)).error).toEqual({
      code: -32600,
      message: `Invalid Request: ${reason}`,
    });
    await probe(serve);
  });
});

describe('a line longer than the SDK stdio read limit (10 MiB)', () => {
  // Was a bug: the SDK's StdioServerTransport closes itself on a line over its 10 MiB buffer and
  // pauses stdin, so `serve` never saw 'end' and hung. serve.ts now stops when that happens.
  it('leaves a process that answers, or that exits once stdin closes', async () => {
    const serve = await ServeProcess.start(cleanup, config, join(tmp.dir, 'data-overflow'));
    // Not awaited: once the transport gives up, nothing drains the pipe any more.
    serve.push(`${'z'.repeat(11 * 1024 * 1024)}\n`);
    try {
      const answered = await probe(serve, 3_000).then(
        () => true,
        () => false,
      );
      if (!answered) {
        serve.endInput();
        expect(await serve.exitsWithin(5_000), serve.stderr().slice(-500)).toBe(true);
      }
    } finally {
      await serve.kill();
    }
  }, 60_000);
});
