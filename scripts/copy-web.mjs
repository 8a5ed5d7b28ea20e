// Copies the web menu's static files (everything in web/ but its TypeScript sources) next to
// the compiled scripts in dist/web, which src/http/web.ts serves.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const from = join(import.meta.dirname, '..', 'web');
const to = join(import.meta.dirname, '..', 'dist', 'web');
mkdirSync(to, { recursive: true });
for (const entry of readdirSync(from, { withFileTypes: true })) {
  if (entry.isFile()) copyFileSync(join(from, entry.name), join(to, entry.name));
}
