// Copies the web menu's static files (everything in web/ but its TypeScript sources) next to
// the compiled scripts in dist/web, which src/http/web.ts serves, and the chart library the
// activity view loads (uPlot, bundled: the page never reaches a CDN; docs/web.md).
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const from = join(import.meta.dirname, '..', 'web');
const to = join(import.meta.dirname, '..', 'dist', 'web');
mkdirSync(to, { recursive: true });
for (const entry of readdirSync(from, { withFileTypes: true })) {
  if (entry.isFile()) copyFileSync(join(from, entry.name), join(to, entry.name));
}
// Resolved as the page's compiler resolves it (from web/ upwards), wherever npm placed it.
const uplot = join(dirname(createRequire(join(from, 'src', 'x.js')).resolve('uplot/package.json')), 'dist');
for (const file of ['uPlot.iife.min.js', 'uPlot.min.css'])
  copyFileSync(join(uplot, file), join(to, file.replace('uPlot', 'uplot')));
