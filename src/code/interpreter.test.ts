import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarteError } from '../errors.js';
import { failedRunLogs, runScript, type ScriptHost, type ScriptLimits } from './index.js';

const LIMITS: ScriptLimits = { timeoutMs: 2_000, memoryBytes: 16 * 2 ** 20, maxCalls: 20 };

/** A host whose tools echo their arguments; `slow/*` never answers until the run's signal ends it. */
function echoHost(started: string[] = []): ScriptHost {
  return {
    call: (key, args, signal) => {
      started.push(key);
      if (key.startsWith('slow/'))
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      if (key === 'bad/tool')
        return Promise.reject(new CarteError('unknown_tool', 'unknown tool "bad/tool"'));
      return Promise.resolve({ key, args });
    },
    search: (query, limit) =>
      Promise.resolve([{ key: 'fs/read', description: `for ${String(query)} ${String(limit)}` }]),
  };
}

async function failure(
  code: string,
  limits: Partial<ScriptLimits> = {},
  host = echoHost(),
): Promise<CarteError> {
  try {
    await runScript(code, host, { ...LIMITS, ...limits });
  } catch (err) {
    expect(err).toBeInstanceOf(CarteError);
    return err as CarteError;
  }
  throw new Error('the script did not fail');
}

// The interpreter's WebAssembly is read from its npm package: nothing is fetched, ever.
const realFetch = globalThis.fetch;
beforeAll(() => {
  globalThis.fetch = () => Promise.reject(new Error('run_code must not fetch anything'));
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

describe('runScript', () => {
  it('returns the value as JSON, with the logs, calls and searches awaited at top level', async () => {
    const code = `
      const found = await search('read a file', { limit: 3 });
      console.log('found', found.length, { a: 1 });
      const results = await Promise.all(['a', 'b'].map((n) => call('fs/read', { path: n })));
      return { found: found[0].key, paths: results.map((r) => r.args.path) };`;
    const r = await runScript(code, echoHost(), LIMITS);
    expect(JSON.parse(r.json!)).toEqual({ found: 'fs/read', paths: ['a', 'b'] });
    expect(r.logs).toEqual(['found 1 {"a":1}']);
    expect(r.calls).toBe(3);
  });

  it('gives undefined json when the script returns nothing', async () => {
    expect((await runScript('console.log(1)', echoHost(), LIMITS)).json).toBeUndefined();
  });

  it("turns a call's failure into an Error carrying Carte's message and code", async () => {
    const r = await runScript(
      `try { await call('bad/tool', {}) } catch (e) { return [e instanceof Error, e.message, e.code] }`,
      echoHost(),
      LIMITS,
    );
    expect(JSON.parse(r.json!)).toEqual([true, 'unknown tool "bad/tool"', 'unknown_tool']);
  });

  it('has no Node APIs, not even through the Function constructor', async () => {
    const r = await runScript(
      `const g = Function('return this')();
       const viaCtor = (() => {}).constructor.constructor('return typeof process')();
       return [typeof process, typeof require, typeof fetch, typeof g.process, typeof g.require,
               typeof g.fetch, viaCtor, typeof globalThis.__carte_host, typeof setTimeout, typeof Buffer];`,
      echoHost(),
      LIMITS,
    );
    expect(JSON.parse(r.json!)).toEqual(Array(10).fill('undefined'));
  });

  it('refuses import, static or dynamic', async () => {
    expect((await failure(`import fs from 'node:fs'`)).code).toBe('script_error');
    const dynamic = await runScript(
      `try { await import('node:fs'); return 'imported' } catch (e) { return String(e) }`,
      echoHost(),
      LIMITS,
    );
    expect(JSON.parse(dynamic.json!)).not.toBe('imported');
  });

  it('ends an endless loop at the time limit, naming it', async () => {
    const err = await failure('while (true) {}', { timeoutMs: 200 });
    expect([err.code, err.message]).toEqual([
      'timeout',
      'the script ran past its time limit of 200 ms (exposure.code.timeoutMs)',
    ]);
  });

  it('ends an endless loop after an await, and one that catches the interrupt', async () => {
    const err = await failure(
      `await call('fs/read', {}); for (;;) { try { while (true) {} } catch (e) {} }`,
      { timeoutMs: 200 },
    );
    expect(err.code).toBe('timeout');
  });

  // An interrupt turned into a rejection (by a Promise executor, an async function or a promise
  // job) used to let the script's code run on: the first two kept Carte's event loop blocked for
  // ever, the third ran its handler thousands of times. Nothing of the script runs after its stop.
  it.each([
    ['a Promise executor', `for (;;) { new Promise(() => { for (;;) {} }); console.log('after'); }`],
    ['an async function', `for (;;) { (async () => { for (;;) {} })(); console.log('after'); }`],
    [
      'a promise job',
      `const g = () => Promise.resolve().then(() => { for (;;) {} }).catch(() => { console.log('after'); return g(); });
       g(); await new Promise(() => {});`,
    ],
  ])('stops a script that catches its interrupt through %s, and runs none of it after', async (_, code) => {
    const err = await failure(code, { timeoutMs: 200 });
    expect([err.code, failedRunLogs(err)]).toEqual(['timeout', undefined]);
    expect((await runScript('return 4', echoHost(), LIMITS)).json).toBe('4');
  });

  it('ends a script waiting on a call that never answers at the time limit, and aborts the call', async () => {
    const err = await failure(`await call('slow/wait', {})`, { timeoutMs: 200 });
    expect(err.code).toBe('timeout');
  });

  it('ends a memory bomb with a memory error', async () => {
    const err = await failure(`const a = []; while (true) a.push({ i: a.length });`);
    expect([err.code, err.message]).toEqual([
      'script_error',
      'the script ran out of memory: its limit is 16 MB (exposure.code.memoryMb)',
    ]);
  });

  // QuickJS's release build gives the host no sign of an out-of-memory error the script caught
  // (it is thrown and caught inside, usually for one large allocation: a 1.5x array growth, at
  // 25-70 % of the heap). Such a run stays within its heap limit and ends at its time limit.
  it.each([
    [
      'out-of-memory',
      `const keep = []; for (;;) { try { for (;;) keep.push(new Array(1000).fill(0)); } catch (e) {} keep.length = 0; }`,
    ],
    ['stack overflow', `const f = (n) => f(n + 1) + 1; for (;;) { try { f(0); } catch (e) {} }`],
  ])('ends a run that catches its %s errors and carries on, at its time limit', async (_, code) => {
    const err = await failure(code, { timeoutMs: 1_000 });
    expect(err.message).toBe('the script ran past its time limit of 1000 ms (exposure.code.timeoutMs)');
    expect((await runScript('return 3', echoHost(), LIMITS)).json).toBe('3');
  });

  it('keeps what a failed run logged in its error', async () => {
    const err = await failure(`console.log('step', 1); throw new Error('boom')`);
    expect([err.message, err.details]).toEqual([
      'the script failed: Error: boom',
      { logs: ['step 1'], droppedLogs: 0 },
    ]);
  });

  it('ends deep recursion at the stack limit', async () => {
    const err = await failure(`const f = (n) => f(n + 1) + 1; f(0)`);
    expect([err.code, err.message]).toEqual([
      'script_error',
      'the script recursed too deeply: its stack overflowed',
    ]);
  });

  it('stops at maxCalls', async () => {
    const err = await failure(`for (let i = 0; i < 50; i++) await call('fs/read', { i })`, { maxCalls: 5 });
    expect(err.message).toBe('the script made more than 5 calls (exposure.code.maxCalls)');
  });

  it('starts no call after the run ends, though promises were left pending', async () => {
    const started: string[] = [];
    const r = await runScript(
      `call('fs/a', {}).then(() => call('fs/late', {})); Promise.resolve().then(() => 0); return 1`,
      echoHost(started),
      LIMITS,
    );
    expect(r.json).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual(['fs/a']);
  });

  it('keeps a polluted prototype and replaced JSON inside the script', async () => {
    const code = `
      Object.prototype.ok = true; Object.prototype.polluted = 'yes';
      JSON.parse = () => ({ ok: true, value: 'forged' });
      Array.prototype.map = null;
      try { await call('bad/tool', {}) } catch (e) { return e.code }`;
    const r = await runScript(code, echoHost(), LIMITS);
    expect(r.json).toBe('"unknown_tool"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('passes a __proto__ key in arguments as data, never as a prototype', async () => {
    let seen: unknown;
    const host = { ...echoHost(), call: (_: string, args: unknown) => ((seen = args), Promise.resolve(1)) };
    await runScript(`await call('fs/x', JSON.parse('{"__proto__": {"admin": true}}'))`, host, LIMITS);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
  });

  it('is cancelled by its signal', async () => {
    const abort = new AbortController();
    const run = runScript(`await call('slow/wait', {})`, echoHost(), LIMITS, abort.signal);
    setTimeout(() => abort.abort(), 20);
    await expect(run).rejects.toMatchObject({
      code: 'cancelled',
      message: 'the script was cancelled by the client',
    });
  });

  it('reports a syntax error and an uncaught throw', async () => {
    expect((await failure('return (')).message).toMatch(/^the script failed: SyntaxError: /);
    expect((await failure(`throw new TypeError('nope')`)).message).toBe('the script failed: TypeError: nope');
  });

  it('answers at once after a stopped run, and concurrent runs share nothing', async () => {
    await failure('while (true) {}', { timeoutMs: 100 });
    const [a, b] = await Promise.all([
      runScript('globalThis.x = 1; await call("fs/a", {}); return globalThis.x', echoHost(), LIMITS),
      runScript('await call("fs/b", {}); return typeof globalThis.x', echoHost(), LIMITS),
    ]);
    expect([a.json, b.json]).toEqual(['1', '"undefined"']);
  });

  it('gives each run a fresh runtime: one run after another sees nothing of the one before', async () => {
    const first =
      'globalThis.kept = "secret"; Object.prototype.leak = 1; const b = new Uint8Array(1 << 16).fill(7); return b.length';
    expect((await runScript(first, echoHost(), LIMITS)).json).toBe('65536');
    const second = 'return [typeof kept, ({}).leak, new Uint8Array(1 << 16).some((x) => x !== 0)]';
    expect((await runScript(second, echoHost(), LIMITS)).json).toBe('["undefined",null,false]');
  });

  it('refuses an answer that is not JSON', async () => {
    expect((await failure('return 10n')).message).toMatch(/^the script failed: TypeError: /);
  });
});

describe('runScript, faults inside the interpreter itself', () => {
  it('ends nesting that overflows the host stack inside WebAssembly, and the next run works', async () => {
    const err = await failure(`JSON.parse('['.repeat(100000))`);
    expect(err.message).toBe('the script recursed too deeply: its stack overflowed');
    expect((await runScript('return 2', echoHost(), LIMITS)).json).toBe('2');
  });
});
