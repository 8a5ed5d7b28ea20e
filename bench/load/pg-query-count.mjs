// Preloaded into a Carte process by `profile.ts --pg` (`node --import`): counts every query the
// pg driver sends, by its SQL text. On SIGUSR2 it writes the counts so far to
// `$CARTE_BENCH_QUERY_LOG.<n>` (n = 0, 1, ...), so the bench can take the difference over its
// measured loop. Bench-only: it patches `pg.Client.prototype.query`, which every pool client uses.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pg = require('pg');
const log = process.env.CARTE_BENCH_QUERY_LOG;
const counts = new Map();
const query = pg.Client.prototype.query;

pg.Client.prototype.query = function (config, ...rest) {
  const text = typeof config === 'string' ? config : config?.text;
  const key = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, 120) : '(submittable)';
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return query.call(this, config, ...rest);
};

let seq = 0;
process.on('SIGUSR2', () => {
  if (log) writeFileSync(`${log}.${seq++}`, JSON.stringify(Object.fromEntries(counts)));
});
