// What a request pays for the shared rate-limit counter on PostgreSQL (issue 40, item 5): the
// RateLimiter's admit() for a token with a rate, one upsert statement a request, measured alone
// (one caller) and with 16 callers at once on one key (the worst case: every hit on one row) and
// on 16 keys; then with the project's total counted in the same statement (`rate: {perToken,
// total}`: two rows upserted, 16 tokens on one total row). Against it, a `SELECT 1` round trip on
// the same pool: the floor any shared counter pays.
// Run: npx tsx bench/rates/pg-hit.ts [--pg-url URL] [--requests N]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { RateLimiter, openStore, type CallerContext } from '../../src/gateway/index.js';
import { connectPg, DEFAULT_PG_URL } from '../load/pg-database.js';

const { values } = parseArgs({
  options: {
    'pg-url': { type: 'string', default: DEFAULT_PG_URL },
    requests: { type: 'string', default: '4000' },
  },
});
const N = Number(values.requests);

const server = await connectPg(values['pg-url']);
const store = await openStore(await server.createDatabase('rates'));
const limiter = new RateLimiter(store, {
  projectRate: (id) => (id === 'capped' ? { total: 1e9 } : undefined),
});
const caller = (i: number, projectId = 'p'): CallerContext => ({
  projectId,
  scopes: ['call'],
  tokenId: `tok_${i}`,
  ratePerMinute: 1e9,
});

/** µs per operation: p50, p99, and the mean over the wall time with `callers` at once. */
async function measure(label: string, callers: number, op: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 200; i++) await op(i); // warm the pool and the named statements
  const times: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      while (next < N) {
        next++;
        const t = performance.now();
        await op(c);
        times.push((performance.now() - t) * 1000);
      }
    }),
  );
  const wall = (performance.now() - start) * 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(0);
  console.log(`| ${label} | ${callers} | ${at(0.5)} | ${at(0.99)} | ${(wall / times.length).toFixed(0)} |`);
}

console.log('| operation | callers | p50 µs | p99 µs | wall µs / op |');
console.log('| --- | --- | --- | --- | --- |');
await measure('SELECT 1 (floor)', 1, () => store.ping());
await measure('admit (counter hit)', 1, () => limiter.admit(caller(0), '198.51.100.1'));
await measure('SELECT 1 (floor)', 16, () => store.ping());
await measure('admit, one key', 16, () => limiter.admit(caller(0), '198.51.100.1'));
await measure('admit, 16 keys', 16, (c) => limiter.admit(caller(c), '198.51.100.1'));
await measure('admit + total', 1, () => limiter.admit(caller(0, 'capped'), '198.51.100.1'));
await measure('admit + total, 16 keys', 16, (c) => limiter.admit(caller(c, 'capped'), '198.51.100.1'));
await store.close();
await server.close();
