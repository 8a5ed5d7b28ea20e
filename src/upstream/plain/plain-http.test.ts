// Plain tools/call over Streamable HTTP (plain-http.ts) against the SDK's transport: the same fixture
// server (http-server.mjs, legacy sessions), one connection each way, SSE and JSON answers, and
// every outcome a call can have must read the same through both.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cleanup, httpFixture, type HttpFixture } from '../../../test/fixtures/harness.js';
import { CarteError } from '../../errors.js';
import { UpstreamPool, type CallOptions, type ProgressUpdate, type UpstreamConnection } from '../index.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const legacy = { version: '2025-11-25' };

async function pair(
  pool: UpstreamPool,
  url: URL,
  maxMessageBytes?: number,
): Promise<{ plain: UpstreamConnection; sdk: UpstreamConnection }> {
  const target = { kind: 'remote' as const, url: url.href, headers: { 'x-fixture': 'plain' } };
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

describe.each([
  ['SSE', {}],
  ['JSON', { JSON_RESPONSE: '1' }],
])('plain tools/call to a 2025-era Streamable HTTP upstream answering with %s', (_, env) => {
  const cleanup = new Cleanup();
  const pool = new UpstreamPool();
  let fixture: HttpFixture;
  let conns: { plain: UpstreamConnection; sdk: UpstreamConnection };
  beforeAll(async () => {
    fixture = await httpFixture(cleanup, env);
    conns = await pair(pool, fixture.url);
  });
  afterAll(async () => {
    await pool.closeAll();
    await cleanup.run();
  });

  it.each([
    ['echo', { text: 'héllo' }],
    ['is_error', {}],
    ['big_result', { bytes: -1 }],
    ['no_such_tool', {}],
    ['bad_output', {}],
  ])('answers %s exactly as the SDK does', async (name, args) => {
    const before = conns.plain.plainCallsSent;
    const plain = await outcome(conns.plain, name, args);
    expect(plain).toEqual(await outcome(conns.sdk, name, args));
    expect(conns.plain.plainCallsSent).toBe(before + 1);
    expect(conns.sdk.plainCallsSent).toBe(0);
  });

  it('keeps each answer with its call, many at once, beside SDK requests on the session', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `call ${i}`);
    const [answers, tools] = await Promise.all([
      Promise.all(texts.map((text) => conns.plain.callTool('echo', { text }, { timeoutMs: 10_000 }))),
      conns.plain.listTools(10_000),
    ]);
    expect(answers.map((a) => (a.content as { text: string }[])[0]!.text)).toEqual(texts);
    expect(tools.map((t) => t.name)).toContain('echo');
  });

  it('relays progress and resets the timeout on it, as the SDK does', async () => {
    const before = conns.plain.plainCallsSent;
    const seen = { plain: [] as ProgressUpdate[], sdk: [] as ProgressUpdate[] };
    const run = (which: 'plain' | 'sdk') =>
      outcome(
        conns[which],
        'slow',
        { ms: 600, steps: 4 },
        { timeoutMs: 400, onProgress: (p) => seen[which].push(p) },
      );
    const [plain, sdk] = await Promise.all([run('plain'), run('sdk')]);
    const text = (o: typeof plain) => JSON.stringify(o).replace(/progressToken [^)]+/, 'progressToken T');
    expect(text(plain)).toBe(text(sdk));
    expect(seen.plain).toEqual(seen.sdk);
    // A JSON answer has no stream to carry progress on: none arrives either way, and the call times out.
    if ('JSON_RESPONSE' in env) expect(plain.error?.code).toBe('timeout');
    else {
      expect(text(plain)).toContain('4 steps done');
      expect(seen.plain).toHaveLength(4);
    }
    expect(conns.plain.plainCallsSent).toBe(before + 1);
  });

  it('times out and cancels upstream with the SDK timeout error, leaving no listener behind', async () => {
    const shared = new AbortController().signal;
    const [plain, sdk] = await Promise.all([
      outcome(conns.plain, 'hang', {}, { timeoutMs: 200, signal: shared }),
      outcome(conns.sdk, 'hang', {}, { timeoutMs: 200, signal: shared }),
    ]);
    expect(plain).toEqual(sdk);
    expect(plain.error?.code).toBe('timeout');
    expect(getEventListeners(shared, 'abort')).toHaveLength(0);
    await expect.poll(async () => hangCancelled(conns.plain)).toBeGreaterThanOrEqual(2);
  });

  it('ends an aborted call as cancelled', async () => {
    const controller = new AbortController();
    const call = outcome(conns.plain, 'hang', {}, { signal: controller.signal });
    setTimeout(() => controller.abort('the caller went away'), 50);
    expect((await call).error).toMatchObject({
      code: 'cancelled',
      message: 'tools/call "hang" on server "sdk" was cancelled',
    });
  });

  it('opens a new session after a 404, and repeats only a call marked idempotent, as the SDK path does', async () => {
    const forget = () => fetch(new URL('/forget-sessions', fixture.url), { method: 'POST' });
    await forget();
    const plain = await outcome(conns.plain, 'echo', { text: 'again' });
    const sdk = await outcome(conns.sdk, 'echo', { text: 'again' });
    expect(plain).toEqual(sdk);
    expect(plain.error?.message).toMatch(/lost its HTTP session/);
    await forget();
    const repeated = await outcome(conns.plain, 'echo', { text: 'again' }, { idempotent: true });
    expect(repeated).toEqual(await outcome(conns.sdk, 'echo', { text: 'again' }, { idempotent: true }));
    expect((repeated.result?.content as { text: string }[] | undefined)?.[0]?.text).toContain('again');
  });

  it('refuses a result over the limit as the SDK path does', async () => {
    const own = new UpstreamPool();
    try {
      const small = await pair(own, fixture.url, 4096);
      const args = { bytes: 200_000 };
      const [plain, sdk] = await Promise.all([
        outcome(small.plain, 'big_result', args, { timeoutMs: 5000 }),
        outcome(small.sdk, 'big_result', args, { timeoutMs: 5000 }),
      ]);
      expect(plain).toEqual(sdk);
      expect(sdk.error?.message).toMatch(/over the 4096-byte limit/);
    } finally {
      await own.closeAll();
    }
  });
});

async function hangCancelled(conn: UpstreamConnection): Promise<number> {
  const r = await conn.callTool('stats', {}, { timeoutMs: 10_000 });
  return (JSON.parse((r.content as { text: string }[])[0]!.text) as { hangCancelled: number }).hangCancelled;
}
