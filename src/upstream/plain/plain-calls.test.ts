// Plain tools/call (plain-calls.ts) against the SDK's request funnel: the same fixture server, one
// connection each way, and every outcome a call can have must read the same through both.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/fixtures/harness.js';
import { CarteError } from '../../errors.js';
import { UpstreamPool, type CallOptions, type ProgressUpdate, type UpstreamConnection } from '../index.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const target = { kind: 'stdio' as const, command: process.execPath, args: [fixturePath('faults')], env: {} };

/** The fixture speaks both eras; the npm reference servers, 2025 only. Plain calls are for 2025. */
const legacy = { version: '2025-11-25' };

/** One connection with plain calls and one through the SDK, to the faults fixture. */
async function pair(
  pool: UpstreamPool,
  maxMessageBytes?: number,
): Promise<{ plain: UpstreamConnection; sdk: UpstreamConnection }> {
  const open = (id: string, plainCalls: boolean) =>
    pool.connect(id, target, {
      timeoutMs: 10_000,
      logger: quiet,
      plainCalls,
      known: legacy,
      ...(maxMessageBytes ? { maxMessageBytes } : {}),
    });
  const both = { plain: await open('plain', true), sdk: await open('sdk', false) };
  expect([both.plain.info.protocolEra, both.sdk.info.protocolEra]).toEqual(['2025-11-25', '2025-11-25']);
  return both;
}

/** A call's outcome as data: the result, or the error's code, message and details. */
async function outcome(
  conn: UpstreamConnection,
  name: string,
  args: object,
  options: Partial<CallOptions> = {},
) {
  try {
    return {
      result: await conn.callTool(name, args as Record<string, unknown>, { timeoutMs: 10_000, ...options }),
    };
  } catch (err) {
    if (!(err instanceof CarteError)) throw err;
    return {
      error: { code: err.code, message: err.message.replaceAll('"plain"', '"sdk"'), details: err.details },
    };
  }
}

describe('plain tools/call to a 2025-era stdio upstream', () => {
  const pool = new UpstreamPool();
  let conns: { plain: UpstreamConnection; sdk: UpstreamConnection };
  beforeAll(async () => {
    conns = await pair(pool);
  });
  afterAll(() => pool.closeAll());

  it.each([
    ['echo', { text: 'héllo' }],
    ['is_error', {}],
    ['big_result', { bytes: -1 }],
    ['no_such_tool', {}],
    ['bad_output', {}],
  ])('answers %s exactly as the SDK does', async (name, args) => {
    const plain = await outcome(conns.plain, name, args);
    expect(plain).toEqual(await outcome(conns.sdk, name, args));
  });

  it('leaves no listener on a signal that outlives its calls (one per HTTP connection), as the SDK does', async () => {
    const shared = new AbortController().signal;
    for (const conn of [conns.plain, conns.sdk]) {
      for (const args of [{ text: 'a' }, { text: 5 }]) await outcome(conn, 'echo', args, { signal: shared });
      await outcome(conn, 'no_such_tool', {}, { signal: shared });
      expect(getEventListeners(shared, 'abort')).toHaveLength(0);
    }
  });

  it('takes the plain path on one connection only, with the ids the SDK would send', async () => {
    const before = conns.plain.plainCallsSent;
    const [plain, sdk] = await Promise.all([
      outcome(conns.plain, 'slow', { ms: 10, steps: 1 }, { onProgress: () => undefined }),
      outcome(conns.sdk, 'slow', { ms: 10, steps: 1 }, { onProgress: () => undefined }),
    ]);
    expect(conns.plain.plainCallsSent).toBe(before + 1);
    expect(conns.sdk.plainCallsSent).toBe(0);
    // The SDK internals this relies on are still there (an SDK update that moves them fails here).
    expect([conns.plain.readsLinesOnce, conns.sdk.readsLinesOnce]).toEqual([true, false]);
    // The fixture echoes the progress token, which is the request id: a number either way.
    expect(JSON.stringify(plain)).toMatch(/progressToken \d+\)/);
    expect(JSON.stringify(sdk)).toMatch(/progressToken \d+\)/);
  });

  it('relays progress and resets the timeout on it, as the SDK does', async () => {
    const seen = { plain: [] as ProgressUpdate[], sdk: [] as ProgressUpdate[] };
    const run = (which: 'plain' | 'sdk') =>
      outcome(
        conns[which],
        'slow',
        { ms: 600, steps: 4 },
        { timeoutMs: 400, onProgress: (p) => seen[which].push(p) },
      );
    const [plain, sdk] = await Promise.all([run('plain'), run('sdk')]);
    // The result names the progress token: each connection numbers its own requests.
    const text = (o: typeof plain) => JSON.stringify(o).replace(/progressToken [^)]+/, 'progressToken T');
    expect(text(plain)).toBe(text(sdk));
    expect(text(plain)).toContain('4 steps done');
    expect(seen.plain).toEqual(seen.sdk);
    expect(seen.plain).toHaveLength(4);
  });

  it('times out and cancels upstream, with the SDK timeout error', async () => {
    const [plain, sdk] = await Promise.all([
      outcome(conns.plain, 'hang', {}, { timeoutMs: 200 }),
      outcome(conns.sdk, 'hang', {}, { timeoutMs: 200 }),
    ]);
    expect(plain).toEqual(sdk);
    expect(plain.error?.code).toBe('timeout');
    await expect.poll(async () => stats(await statsText(conns.plain)).hangCancelled).toBe(1);
  });

  it('ends an aborted call as cancelled and tells the upstream', async () => {
    const controller = new AbortController();
    const call = outcome(conns.plain, 'hang', {}, { signal: controller.signal });
    setTimeout(() => controller.abort('the caller went away'), 50);
    expect((await call).error).toMatchObject({
      code: 'cancelled',
      message: 'tools/call "hang" on server "sdk" was cancelled',
    });
    await expect.poll(async () => stats(await statsText(conns.plain)).hangCancelled).toBe(2);
  });

  it('keeps each answer with its call while SDK requests share the connection', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `call ${i}`);
    const [answers, tools] = await Promise.all([
      Promise.all(texts.map((text) => conns.plain.callTool('echo', { text }, { timeoutMs: 10_000 }))),
      conns.plain.listTools(10_000),
    ]);
    expect(answers.map((a) => (a.content as { text: string }[])[0]!.text)).toEqual(texts);
    expect(tools.map((t) => t.name)).toContain('echo');
  });

  it('refuses a result over the read limit as the SDK does', async () => {
    const pool = new UpstreamPool();
    try {
      const small = await pair(pool, 4096);
      const args = { bytes: 200_000 };
      const [plain, sdk] = await Promise.all([
        outcome(small.plain, 'big_result', args, { timeoutMs: 2000 }),
        outcome(small.sdk, 'big_result', args, { timeoutMs: 2000 }),
      ]);
      expect(plain).toEqual(sdk);
      expect(plain.error?.message).toMatch(/over the 4096-byte limit/);
    } finally {
      await pool.closeAll();
    }
  });

  it('fails the calls in flight when the upstream exits, as the SDK does', async () => {
    const fresh = await pair(new UpstreamPool());
    const [plain, sdk] = await Promise.all([
      outcome(fresh.plain, 'crash', {}),
      outcome(fresh.sdk, 'crash', {}),
    ]);
    expect(plain).toEqual(sdk);
    expect(plain.error?.code).toBe('upstream_unavailable');
  });
});

const stats = (text: string) => JSON.parse(text) as { hangCancelled: number };

async function statsText(conn: UpstreamConnection): Promise<string> {
  const r = await conn.callTool('stats', {}, { timeoutMs: 10_000 });
  return (r.content as { text: string }[])[0]!.text;
}
