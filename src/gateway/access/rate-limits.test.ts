// Rate limits (issue 40, item 5) on both engines, with a clock the test moves: no timing.
import { afterEach, describe, expect, it } from 'vitest';
import { CarteError } from '../../errors.js';
import { testEngines } from '../../store/test-engines.js';
import type { CallerContext } from './context.js';
import { parseRate, RateLimiter, type ProjectRate, type RateRefusal } from './rate-limits.js';

const MINUTE = 60_000;
const T0 = 1_800_000_000_000; // a window's start
const ALICE: CallerContext = { projectId: 'web', scopes: ['call'], tokenId: 'tok_alice', ratePerMinute: 3 };
const BOB: CallerContext = { projectId: 'web', scopes: ['call'], tokenId: 'tok_bob' };
const ADDR = '203.0.113.7';
/** web: 2 a minute per token; team: 4 for its callers together, and 3 per token; pool: 3 together only. */
const RATES: Record<string, ProjectRate | undefined> = {
  web: { perToken: 2 },
  team: { perToken: 3, total: 4 },
  pool: { total: 3 },
};

/** The error `p` rejects with, or the test fails. */
async function refusal(p: Promise<unknown>): Promise<CarteError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CarteError);
  return err as CarteError;
}

describe.each(testEngines(afterEach))('RateLimiter on $name', (engine) => {
  const setup = async () => {
    const store = await engine.open();
    const clock = { now: T0 + 15_000 };
    const limiter = new RateLimiter(store, {
      projectRate: (id) => RATES[id],
      now: () => clock.now,
    });
    const refusals: RateRefusal[] = [];
    limiter.onRefusal((r) => refusals.push(r));
    return { store, clock, limiter, refusals };
  };

  it('refuses a token past its own rate until the minute is over, with when to retry', async () => {
    const { store, clock, limiter, refusals } = await setup();
    for (let i = 0; i < 3; i++) await limiter.admit(ALICE, ADDR);
    const err = await refusal(limiter.admit(ALICE, ADDR));
    expect(err.code).toBe('rate_limited');
    expect(err.message).toBe('token tok_alice made more than 3 requests this minute; retry in 45 s');
    expect(err.details).toEqual({ retryAfterSeconds: 45 });
    await refusal(limiter.admit(ALICE, ADDR)); // still refused: one audit row for the window
    expect(refusals).toEqual([{ kind: 'token' }, { kind: 'token' }]);
    clock.now = T0 + MINUTE;
    await limiter.admit(ALICE, ADDR);
    await limiter.settle();
    const rows = await store.activity.audit({ kinds: ['auth'] });
    expect(rows.map((r) => [r.outcome, r.tokenId, r.project, r.detail])).toEqual([
      ['rate_limited', 'tok_alice', 'web', 'token limit 3/m'],
    ]);
  });

  it("applies the project's rate to a token without one, each token counted apart", async () => {
    const { limiter, refusals } = await setup();
    const carol = { ...BOB, tokenId: 'tok_carol' };
    await limiter.admit(BOB, ADDR);
    await limiter.admit(BOB, ADDR);
    await limiter.admit(carol, ADDR);
    expect((await refusal(limiter.admit(BOB, ADDR))).message).toBe(
      'token tok_bob made more than 2 requests this minute; retry in 45 s',
    );
    expect(refusals).toEqual([{ kind: 'project' }]);
    await limiter.admit({ projectId: 'ops', scopes: ['call'], tokenId: 'tok_ops' }, ADDR); // no rate: no limit
  });

  it("caps a project's callers together, tokens with a rate of their own included", async () => {
    const { store, clock, limiter, refusals } = await setup();
    const [ann, ben] = ['tok_ann', 'tok_ben'].map((tokenId) => ({
      projectId: 'team',
      scopes: ['call'],
      tokenId,
    }));
    const own = { ...ann!, tokenId: 'tok_own', ratePerMinute: 100 };
    await limiter.admit(ann!, ADDR);
    await limiter.admit(ben!, ADDR);
    await limiter.admit(own, ADDR);
    await limiter.admit(ann!, ADDR); // the 4th together
    const err = await refusal(limiter.admit(own, ADDR));
    expect(err.message).toBe(
      'project "team" made more than 4 requests this minute, its tokens together; retry in 45 s',
    );
    await refusal(limiter.admit(ben!, ADDR)); // still over: one audit row for the window
    await refusal(limiter.admit(ann!, ADDR)); // ann's 3rd: within its own 3, over the total
    // past its own limit too: the token's own is checked first, and says so
    expect((await refusal(limiter.admit(ann!, ADDR))).message).toBe(
      'token tok_ann made more than 3 requests this minute; retry in 45 s',
    );
    clock.now = T0 + MINUTE;
    await limiter.admit(ben!, ADDR);
    expect(refusals.map((r) => r.kind)).toEqual([
      'project_total',
      'project_total',
      'project_total',
      'project',
    ]);
    await limiter.settle();
    const rows = await store.activity.audit({ kinds: ['auth'] });
    // One row per key and window; the two are written in the same clock millisecond, and their
    // order (newest first by id) depends on which write the engine commits first.
    expect(rows.map((r) => [r.project, r.tokenId, r.detail]).sort()).toEqual([
      ['team', 'tok_ann', 'project limit 3/m'],
      ['team', 'tok_own', 'project total limit 4/m'],
    ]);
  });

  it('a total alone counts the project, not its tokens apart', async () => {
    const { limiter, refusals } = await setup();
    const caller = (tokenId: string) => ({ projectId: 'pool', scopes: ['call'], tokenId });
    for (const t of ['tok_1', 'tok_2', 'tok_3']) await limiter.admit(caller(t), ADDR);
    expect((await refusal(limiter.admit(caller('tok_4'), ADDR))).message).toBe(
      'project "pool" made more than 3 requests this minute, its tokens together; retry in 45 s',
    );
    expect(refusals).toEqual([{ kind: 'project_total' }]);
  });

  it('locks an address out for a minute after more than 10 failed sign-ins, good tokens too', async () => {
    const { store, clock, limiter, refusals } = await setup();
    for (let i = 0; i < 10; i++) expect(await limiter.failed(ADDR)).toBeUndefined();
    const locked = await limiter.failed(ADDR);
    expect(locked?.message).toBe('too many failed sign-ins from 203.0.113.7; retry in 60 s');
    expect(locked?.details).toEqual({ retryAfterSeconds: 60 });
    clock.now += 30_000;
    expect((await refusal(limiter.admit(ALICE, ADDR))).message).toBe(
      'too many failed sign-ins from 203.0.113.7; retry in 30 s',
    );
    await limiter.admit(ALICE, '198.51.100.1'); // another address is not locked out
    expect((await limiter.failed(ADDR))?.code).toBe('rate_limited');
    clock.now += 30_000;
    await limiter.admit(ALICE, ADDR); // the minute is over
    expect(refusals.map((r) => r.kind)).toEqual(['auth_failures', 'auth_failures', 'auth_failures']);
    await limiter.settle();
    const rows = await store.activity.audit({ kinds: ['auth'], outcome: 'rate_limited' });
    expect(rows.map((r) => r.detail)).toEqual(['address 203.0.113.7: more than 10 failed sign-ins a minute']);
  });

  it('never locks out this machine', async () => {
    const { limiter } = await setup();
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', 'unknown'])
      for (let i = 0; i < 12; i++) expect(await limiter.failed(address)).toBeUndefined();
  });
});

describe('parseRate', () => {
  it.each([
    ['600/m', 600],
    ['600/min', 600],
    ['10/s', 600],
  ])('%s is %i a minute', (text, n) => expect(parseRate(text)).toBe(n));

  it('refuses anything else, naming it', () => {
    expect(() => parseRate('600')).toThrow(
      'a rate is requests per minute or second such as "600/m" or "10/s", not "600"',
    );
    expect(() => parseRate('0/m')).toThrow(CarteError);
  });
});
