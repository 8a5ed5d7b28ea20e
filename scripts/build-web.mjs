// Builds the web menu into dist/web, which src/http/web.ts serves: each web/src/*.ts becomes one
// minified ES module the browser loads as it is (no bundle), with its source map beside it; the
// style sheets are minified, index.html and the icon copied, and uPlot's two files copied from
// node_modules (the page never reaches a CDN). Then it weighs the page's own files and fails when
// they pass the budget (docs/web.md, "Building"). Type errors are tsc's job: `tsc -p
// tsconfig.web.json` runs before this in `npm run build`; esbuild only strips the types.
// Usage: node scripts/build-web.mjs [outdir]   (outdir defaults to dist/web)
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
const WEB = join(ROOT, 'web');

/** Bytes (1 KB = 1,000) the page's own files may weigh, before gzip. */
export const BUDGET = 60_000;

/** In dist/web but not the page's own: uPlot, fetched only by #/activity, and the source maps. */
export function isOutsideBudget(path) {
  return path.startsWith('uplot.') || path.endsWith('.map');
}

/** Compiles, minifies and copies the page into `outdir`, emptied first (nothing stale is served). */
export async function buildWeb(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  const sources = readdirSync(join(WEB, 'src'), { recursive: true })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(WEB, 'src', f));
  const common = { outdir, minify: true, sourcemap: 'linked', logLevel: 'warning' };
  // Not bundled: the imports stay `./api.js`, so each file is its source's, one to one.
  await build({
    ...common,
    entryPoints: sources,
    outbase: join(WEB, 'src'),
    format: 'esm',
    target: 'es2022',
    tsconfig: join(ROOT, 'tsconfig.web.json'),
  });
  const files = readdirSync(WEB, { withFileTypes: true }).filter((e) => e.isFile());
  const sheets = files.filter((e) => e.name.endsWith('.css')).map((e) => join(WEB, e.name));
  await build({ ...common, entryPoints: sheets });
  for (const e of files) if (!e.name.endsWith('.css')) copyFileSync(join(WEB, e.name), join(outdir, e.name));
  // Resolved as the page's compiler resolves it (from web/ upwards), wherever npm placed it.
  const uplot = join(dirname(createRequire(join(WEB, 'src', 'x.js')).resolve('uplot/package.json')), 'dist');
  for (const file of ['uPlot.iife.min.js', 'uPlot.min.css'])
    copyFileSync(join(uplot, file), join(outdir, file.replace('uPlot', 'uplot')));
}

/**
 * What the browser downloads of the page's own code and styles: every file in `dir` but those
 * outside the budget, raw and each gzipped on its own (as a server would send it), largest first.
 */
export function weighWeb(dir) {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((path) => !isOutsideBudget(path))
    .map((path) => {
      const body = readFileSync(join(dir, path));
      return { path, bytes: body.length, gzip: gzipSync(body).length };
    })
    .sort((a, b) => b.bytes - a.bytes);
  const sum = (key) => files.reduce((n, f) => n + f[key], 0);
  return { files, bytes: sum('bytes'), gzip: sum('gzip') };
}

/** One line for the build log, or the reason it fails with the five largest files. */
export function describeWeight(weight) {
  const total = `${weight.bytes.toLocaleString('en')} bytes (${weight.gzip.toLocaleString('en')} gzipped)`;
  if (weight.bytes <= BUDGET) return `web: ${total} of its ${BUDGET.toLocaleString('en')}-byte budget`;
  const largest = weight.files.slice(0, 5).map((f) => `${f.path} ${f.bytes.toLocaleString('en')}`);
  return `web: the page's own files weigh ${total}, over its ${BUDGET.toLocaleString('en')}-byte budget (docs/web.md); largest: ${largest.join(', ')}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outdir = resolve(process.argv[2] ?? join(ROOT, 'dist', 'web'));
  mkdirSync(dirname(outdir), { recursive: true });
  await buildWeb(outdir);
  const weight = weighWeb(outdir);
  process.stderr.write(`${describeWeight(weight)}\n`);
  if (weight.bytes > BUDGET) process.exitCode = 1;
}
