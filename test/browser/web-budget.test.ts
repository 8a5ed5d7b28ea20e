import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { ROOT, tempDir } from '../e2e/helpers.js';
import { BUDGET, buildWeb, describeWeight, weighWeb, type WebWeight } from '../../scripts/build-web.mjs';

// The page's size budget (docs/web.md, "Building"). The page is built here, from the sources, by
// the function `npm run build` runs, into a temp folder: the test never reads a missing or stale
// dist/web. Bytes only, no timings.
describe('the web page as built', () => {
  const tmp = tempDir('carte-web-budget-');
  const out = join(tmp.dir, 'web');
  let weight: WebWeight;
  beforeAll(async () => {
    await buildWeb(out);
    weight = weighWeb(out);
  });
  afterAll(() => tmp.cleanup());

  it(`weighs at most ${BUDGET} bytes, uPlot and source maps aside`, () => {
    expect(weight.bytes, describeWeight(weight)).toBeLessThanOrEqual(BUDGET);
  });

  it('has a minified module and its source map for every source, and nothing else of its own', () => {
    const sources = readdirSync(join(ROOT, 'web', 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.split(/[\\/]/).join('/').replace(/\.ts$/, '.js'));
    const scripts = weight.files.map((f) => f.path).filter((p) => p.endsWith('.js'));
    expect(scripts.sort()).toEqual(sources.sort());
    for (const script of scripts) {
      const body = readFileSync(join(out, script), 'utf8');
      expect(body.split('\n').length, `${script} is not minified`).toBeLessThanOrEqual(3);
      expect(body.trimEnd().endsWith(`//# sourceMappingURL=${posix.basename(script)}.map`)).toBe(true);
      expect(existsSync(join(out, `${script}.map`)), `${script}.map`).toBe(true);
    }
  });

  it('loads no inline script or style, and every file index.html names is built', () => {
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/\ssrc="/);
    expect(html).not.toMatch(/<style\b|\son[a-z]+=|\sstyle=/i);
    const named = [...html.matchAll(/\s(?:src|href)="([^"#]+)"/g)].map((m) => m[1]!);
    expect(named).toEqual(expect.arrayContaining(['main.js', 'style.css', 'views.css', 'uplot.min.css']));
    for (const file of named) expect(existsSync(join(out, file)), file).toBe(true);
  });

  it('resolves every import of every module to a built file (the modules are not bundled)', () => {
    for (const script of weight.files.map((f) => f.path).filter((p) => p.endsWith('.js'))) {
      const body = readFileSync(join(out, script), 'utf8');
      for (const m of body.matchAll(/\bfrom\s*"(\.{1,2}\/[^"]+)"/g)) {
        const target = posix.join(posix.dirname(script), m[1]!);
        expect(existsSync(join(out, target)), `${script} imports ${m[1]}`).toBe(true);
      }
    }
  });
});

describe('weighWeb', () => {
  const tmp = tempDir('carte-web-weigh-');
  afterAll(() => tmp.cleanup());
  const files: Record<string, string> = {
    'main.js': 'x'.repeat(100),
    'views/home.js': 'y'.repeat(50),
    'fonts/new.woff2': 'z'.repeat(30), // a kind of file nobody listed is counted all the same
    'main.js.map': 'm'.repeat(1000),
    'uplot.iife.min.js': 'u'.repeat(5000),
    'uplot.min.css': 'c'.repeat(500),
  };
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(tmp.dir, path)), { recursive: true });
    writeFileSync(join(tmp.dir, path), body);
  }

  it('counts every file but uPlot and the source maps, largest first', () => {
    const weight = weighWeb(tmp.dir);
    expect(weight.files.map((f) => [f.path, f.bytes])).toEqual([
      ['main.js', 100],
      ['views/home.js', 50],
      ['fonts/new.woff2', 30],
    ]);
    expect(weight.bytes).toBe(180);
    expect(weight.gzip).toBe(weight.files.reduce((n, f) => n + f.gzip, 0));
  });

  it('says what is over the budget and the largest files', () => {
    const over: WebWeight = {
      files: [
        { path: 'main.js', bytes: 50_000, gzip: 9_000 },
        { path: 'views.css', bytes: 10_001, gzip: 2_000 },
      ],
      bytes: 60_001,
      gzip: 11_000,
    };
    expect(describeWeight(over)).toBe(
      "web: the page's own files weigh 60,001 bytes (11,000 gzipped), over its 60,000-byte budget (docs/web.md); largest: main.js 50,000, views.css 10,001",
    );
    expect(describeWeight({ ...over, bytes: 60_000 })).toBe(
      'web: 60,000 bytes (11,000 gzipped) of its 60,000-byte budget',
    );
  });
});
