import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../../src/gateway/index.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) as a real process: `carte tools`, `carte menu`,
// `carte stats` (issue 14, items 1, 4, 7, 8) and a rule's use cases in `carte search` (issue 40)
// over two fixture servers and a `rules:` block.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
const DATA = join(tmp.dir, 'data');
const CONFIG = join(tmp.dir, 'carte.yaml');
const DAY = 86_400_000;
afterAll(() => tmp.cleanup());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function carte(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', DATA, '--config', CONFIG, ...args],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function json<T>(...args: string[]): Promise<T> {
  const r = await carte(...args, '--json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
}

interface ToolLine {
  key: string;
  server: string;
  visible: boolean;
  enabled: boolean;
  category: string;
  tags: string[];
  useCases: string[];
  pinned: boolean;
  decidedBy: number | null;
  why: string;
  usage?: { calls: number; errors: number; errorRate: number; p50Ms: number; lastUsedAt: string } | null;
}

writeFileSync(
  CONFIG,
  `servers:
  big:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}]
    env: {TOOL_COUNT: "120", PAGE_SIZE: "50"}
  faults:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(join(FIXTURES, 'faults.mjs'))}]
rules:
  - match: faults/crash
    enabled: false
  - match: echo
    server: faults
    pin: true
    tags: [demo]
    useCases: ['parrot my words back']
  - match: big/*
    category: data
    tags: [paged]
`,
);

beforeAll(async () => {
  const sync = await carte('sync');
  expect(sync.code).toBe(0);
  // Two tool errors and one success, before any test reads usage.
  for (const key of ['faults/is_error', 'faults/is_error', 'faults/echo']) {
    const r = await carte('call', key, ...(key === 'faults/echo' ? ['--args', '{"text":"hi"}'] : []));
    expect(r.code).toBe(key === 'faults/echo' ? 0 : 1);
  }
}, 120_000);

describe('carte tools', () => {
  it('lists visible tools with category, tags, pin and why; the hidden one only with --hidden', async () => {
    const r = await carte('tools');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TOOL +CATEGORY +TAGS +USE CASES +PIN +WHY$/);
    expect(r.stdout).not.toContain('faults/crash');
    expect(r.stdout).toMatch(/^faults\/echo +\S+ +demo(, \S+)* +parrot my words back +\* +shown$/m);
    expect(r.stdout).toMatch(/^big\/page_tool_7 +data +paged +- +shown$/m);
    expect(lines.at(-1)).toBe('128 tools shown; 1 hidden: carte tools --hidden');

    const hidden = await carte('tools', '--hidden');
    expect(hidden.stdout).toMatch(
      /^faults\/crash +\S+ +\S+ +hidden by rules\[0\] \(match "faults\/crash"\)$/m,
    );
    expect(hidden.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(hidden.stdout).toContain('\n1 hidden tool; 128 shown\n');
  });

  it('--json prints one stable object per tool', async () => {
    const tools = await json<ToolLine[]>('tools', '--server', 'faults');
    expect(tools.map((t) => t.key)).not.toContain('faults/crash');
    expect(tools.find((t) => t.key === 'faults/echo')).toEqual({
      key: 'faults/echo',
      server: 'faults',
      visible: true,
      enabled: true,
      category: expect.any(String) as string,
      tags: expect.arrayContaining(['demo']) as string[],
      useCases: ['parrot my words back'],
      pinned: true,
      decidedBy: null,
      why: 'shown',
    });
    const [crash] = await json<ToolLine[]>('tools', '--hidden');
    expect(crash).toMatchObject({ key: 'faults/crash', visible: false, pinned: false, decidedBy: 0 });
    const data = await json<ToolLine[]>('tools', '--category', 'data', '--server', 'big');
    expect(data).toHaveLength(120);
    expect(data.every((t) => t.category === 'data' && t.tags.includes('paged'))).toBe(true);
  });

  it('--usage adds calls, error rate, p50 and last use, most called first, "-" for never called', async () => {
    const r = await carte('tools', '--usage', '--server', 'faults');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TOOL +CALLS +ERRORS +P50 +LAST USED +CATEGORY +TAGS +USE CASES +PIN +WHY$/);
    expect(lines[1]).toMatch(/^faults\/is_error +2 +100% +[\d.]+ m?s +just now +/);
    expect(lines[2]).toMatch(/^faults\/echo +1 +0% +[\d.]+ m?s +just now +/);
    expect(lines[3]).toMatch(/^faults\/\S+ +- +- +- +- +/);
    const tools = await json<ToolLine[]>('tools', '--usage', '--server', 'faults');
    expect(tools[0]!.usage).toEqual({
      calls: 2,
      errors: 2,
      errorRate: 1,
      p50Ms: expect.any(Number) as number,
      lastUsedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });
    expect(tools.at(-1)!.usage).toBeNull();
  });

  it("a rule's use case makes a query that only its phrase matches find the tool", async () => {
    // "parrot" is in no tool's name, description or schema: only the rule's use case says it.
    const { results } = await json<{ results: { key: string }[] }>('search', 'parrot my words');
    expect(results[0]?.key).toBe('faults/echo');
  });

  it('names a bad category (listing the ten) and an unknown server (did you mean)', async () => {
    const cat = await carte('tools', '--category', 'nope');
    expect(cat.code).toBe(64);
    expect(cat.stderr).toBe(
      'carte: unknown category "nope"; the categories are code, files, web, documents, data, infra, ai, security, communication, utilities\n',
    );
    const server = await carte('tools', '--server', 'fault');
    expect(server.code).toBe(65);
    expect(server.stderr).toBe('carte: unknown server "fault"; did you mean "faults"?\n');
  });
});

describe('carte menu', () => {
  it('shows the hot list with pinned tools first, then the categories, then a hint', async () => {
    const r = await carte('menu');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Hot',
      expect.stringMatching(/^ {2}faults\/echo +pinned +Returns its text argument unchanged\.$/) as string,
      expect.stringMatching(/^ {2}faults\/is_error +Returns a tool-level failure/) as string,
    ]);
    expect(lines).toContain('Categories');
    expect(r.stdout).toMatch(
      /^ {2}data +Data, databases and analysis +\d+ tools +\d servers? +big\/page_tool_1, /m,
    );
    expect(lines.at(-1)).toBe(
      "carte menu <category> lists a category's tools; carte menu --server <id> a server's",
    );
  });

  it('--json is the browse_tools menu', async () => {
    const menu = await json<{ kind: string; hot: unknown[]; categories: Array<Record<string, unknown>> }>(
      'menu',
    );
    expect(menu.kind).toBe('menu');
    expect(menu.hot[0]).toEqual({
      key: 'faults/echo',
      summary: 'Returns its text argument unchanged.',
      pinned: true,
    });
    expect(Object.keys(menu.categories[0]!)).toEqual(['id', 'label', 'tools', 'servers', 'examples']);
  });

  it('pages through a whole category (past the 50-tool page)', async () => {
    const list = await json<{ kind: string; scope: unknown; total: number; tools: Array<{ key: string }> }>(
      'menu',
      'data',
    );
    expect(list.kind).toBe('tools');
    expect(list.scope).toEqual({ category: 'data' });
    expect(list.total).toBeGreaterThanOrEqual(120);
    expect(list.tools).toHaveLength(list.total);
    expect(new Set(list.tools.map((t) => t.key)).size).toBe(list.total);
    const r = await carte('menu', 'data');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`data (Data, databases and analysis): ${list.total} tools`);
    expect(lines).toHaveLength(list.total + 1);
    expect(r.stdout).toMatch(
      /^ {2}big\/page_tool_120 +Paginated fixture tool 120 of 120: echoes its value argument\.$/m,
    );
  });

  it("--server lists a server's tools, and with a category filters by both", async () => {
    const r = await carte('menu', '--server', 'faults');
    expect(r.stdout.split('\n')[0]).toBe('server faults: 8 tools');
    expect(r.stdout).not.toContain('faults/crash');
    const both = await json<{ scope: unknown; usable: boolean; total: number }>(
      'menu',
      'data',
      '--server',
      'big',
    );
    expect(both).toMatchObject({ scope: { category: 'data', server: 'big' }, usable: true, total: 120 });
    const text = await carte('menu', 'data', '--server', 'big');
    expect(text.stdout.split('\n')[0]).toBe('data (Data, databases and analysis) on server big: 120 tools');
  });

  it('names a bad category and an unknown server', async () => {
    const cat = await carte('menu', 'nope');
    expect(cat.code).toBe(64);
    expect(cat.stderr).toBe(
      'carte: unknown category "nope"; the categories are code, files, web, documents, data, infra, ai, security, communication, utilities\n',
    );
    const server = await carte('menu', '--server', 'fault');
    expect(server.code).toBe(65);
    expect(server.stderr).toBe('carte: unknown server "fault"; did you mean "faults"?\n');
  });
});

describe('carte stats', () => {
  it('shows the calls made, and sessions with the tokens saved, within --since', async () => {
    const before = await json<Record<string, unknown>>('stats');
    expect(before).toMatchObject({ since: null, sessions: 0, savedRatio: null, calls: 3, errors: 2 });
    expect((before.topTools as Array<{ key: string }>).map((t) => t.key)).toEqual([
      'faults/is_error',
      'faults/echo',
    ]);

    // Two ended sessions, one ten days ago, and an old call: the ledger carte serve writes.
    const store = await openStore(join(DATA, 'carte.db'));
    const now = Date.now();
    await store.activity.recordSession({ durationMs: 1000, tokensSent: 250, tokensListing: 1000 });
    await store.activity.recordSession({
      at: now - 10 * DAY,
      durationMs: 1000,
      tokensSent: 100,
      tokensListing: 1000,
    });
    await store.activity.record({
      kind: 'call',
      at: now - 10 * DAY,
      key: 'big/page_tool_1',
      server: 'big',
      outcome: 'ok',
      durationMs: 5,
    });
    await store.close();

    const week = await json<Record<string, unknown>>('stats', '--since', '7d');
    expect(week).toMatchObject({
      sessions: 1,
      tokensSent: 250,
      tokensListing: 1000,
      tokensSaved: 750,
      savedRatio: 0.75,
      calls: 3,
      errors: 2,
    });
    expect(Date.parse(week.since as string)).toBeGreaterThan(now - 7 * DAY - 60_000);
    expect(Object.keys(week)).toEqual([
      'since',
      'sessions',
      'tokensSent',
      'tokensListing',
      'tokensSaved',
      'savedRatio',
      'calls',
      'errors',
      'topTools',
    ]);

    const r = await carte('stats', '--since', '7d');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(7d\)$/);
    expect(lines.slice(1, 6).map((l) => l.replace(/ +/g, ' '))).toEqual([
      ' sessions 1',
      ' tokens sent 250',
      ' full listing 1,000',
      ' tokens saved 750 (75%)',
      ' calls 3 (2 errors)',
    ]);
    expect(lines[6]).toBe('top tools');
    expect(lines[7]).toMatch(/^ {2}faults\/is_error +2 calls +100% errors +p50 [\d.]+ m?s$/);
    expect(lines[8]).toMatch(/^ {2}faults\/echo +1 call +0% errors +p50 [\d.]+ m?s$/);

    const all = await json<Record<string, unknown>>('stats');
    expect(all).toMatchObject({ sessions: 2, tokensSent: 350, tokensSaved: 1650, calls: 4 });
  });

  it.each(['7x', '0d', '1.5h'])('refuses --since %s naming the value', async (value) => {
    const r = await carte('stats', '--since', value);
    expect(r.code).toBe(64);
    expect(r.stderr).toBe(`carte: --since takes a duration such as 30m, 24h, 7d or 2w, not "${value}"\n`);
  });
});
