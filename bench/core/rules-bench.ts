// Tool rules over the big catalog: `npx tsx bench/core/rules-bench.ts [--runs N] [--data DIR]`
// (add `node --expose-gc --import tsx` to start each run from a collected heap). Times
// compileRules + evaluateRules (20 rules: globs, regexes, negations, server-only rules, whitelist
// mode) over the ~7k tools of the shared bench catalog, in process. The first run is the one
// that counts (rules are evaluated once per catalog change); later runs show the optimised cost.
import { loadavg } from 'node:os';
import { normaliseServerId } from '../../src/config/index.js';
import { compileRules, evaluateRules, type RuleInput, type RuleTool } from '../../src/policy/index.js';
import { benchDataDir, loadBigCatalog } from './bench-data.js';
import { numberFlag } from './paths.js';
import { ms, summarize } from './stats.js';

/** Twenty rules of the shapes people write; two say `enabled: true`, so whitelist mode is on. */
const RULES: RuleInput[] = [
  { match: ['*delete*', '*remove*', '*drop*'], enabled: false, tags: ['destructive'] },
  { match: '/^(create|update|put|post)_/i', tags: ['write'] },
  { match: ['get_*', 'list_*', 'search_*', 'read_*', 'fetch*'], tags: ['read'] },
  { match: '*github*', category: 'code', tags: ['vcs'] },
  { match: ['*git*', '!*github*'], category: 'code' },
  { match: '*file*', category: 'files' },
  { match: '{read,write,move}_{file,files,directory}', category: 'files', pin: true },
  { match: '/(browser|page|url|http)/i', category: 'web' },
  { match: ['*pdf*', '*doc*', '*sheet*'], category: 'documents' },
  { match: '/(sql|query|database|table)/i', category: 'data' },
  { match: ['*docker*', '*k8s*', '*kube*', '*aws*'], category: 'infra' },
  { match: '/(llm|openai|embedding|model)/i', category: 'ai' },
  { match: ['*secret*', '*token*', '*auth*'], category: 'security', tags: ['sensitive'] },
  { match: ['*slack*', '*mail*', '*message*'], category: 'communication' },
  { match: '[a-c]*_?', server: 'filesystem', tags: ['short'] },
  { match: '*', server: 'memory', pin: false, tags: ['memory'] },
  { match: ['!/^[a-z_]+$/'], tags: ['odd-name'] },
  { match: '*_v[0-9]*', tags: ['versioned'] },
  { match: ['*/*'], enabled: true },
  { match: '*', enabled: true },
];

/** The catalog's tools as the store hands them over: keys are flat strings, not concatenations. */
function loadTools(): RuleTool[] {
  return loadBigCatalog(benchDataDir()).map((t) => {
    const server = normaliseServerId(t.server);
    const key = `${server}/${t.name}`;
    key.charCodeAt(0); // flattens the concatenation, as a string read from SQLite already is
    return { key, server, name: t.name };
  });
}

function main(): void {
  const runs = numberFlag('runs', 20);
  const tools = loadTools();
  const gc = (globalThis as { gc?: () => void }).gc;
  const wall: number[] = [];
  const cpu: number[] = [];
  let hidden = 0;
  for (let i = 0; i < runs; i++) {
    gc?.();
    const [t, c] = [performance.now(), process.cpuUsage()];
    const decisions = evaluateRules(compileRules(RULES), tools);
    const used = process.cpuUsage(c);
    wall.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
    hidden = [...decisions.values()].filter((d) => !d.visible).length;
  }
  const row = (label: string, s: number[]) => {
    const x = summarize(s.slice(1));
    return `| ${label} | ${ms(s[0]!)} | ${ms(x.min)} | ${ms(x.p50)} | ${ms(x.p95)} |`;
  };
  const load = loadavg().map((l) => l.toFixed(1));
  console.log(`# Tool rules: ${RULES.length} rules over ${tools.length} tools (${hidden} hidden)\n`);
  console.log(
    `Load average ${load.join(' ')}; ${gc ? 'heap collected before each run' : 'no --expose-gc'}.\n`,
  );
  console.log('| compileRules + evaluateRules, ms | first run | later: min | p50 | p95 |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(row('wall', wall));
  console.log(row('CPU (user + system)', cpu));
}

main();
