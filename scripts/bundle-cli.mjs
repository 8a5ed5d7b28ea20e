// Bundles the compiled CLI (dist/cli/main.js and all it imports, node_modules included) into
// dist/carte/, which bin/carte.js runs: one file per lazily loaded part (the MCP server SDK, Hono,
// the tokenizer...) instead of some 300 modules, so a command starts in about half the time
// (docs/benchmarks.md, "Where the time goes: start-up"). Left outside: the native SQLite driver,
// PostgreSQL's driver (it may look for pg-native), and the USE-Lite model's packages (loaded only
// for hybrid search).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'carte');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'dist', 'cli', 'main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  external: ['better-sqlite3', 'pg', 'pg-native', '@energetic-ai/*', '@jitl/*'],
  // CommonJS packages inside an ES module bundle call require(): give them node's.
  banner: {
    js: "import { createRequire as __carteRequire } from 'node:module'; const require = __carteRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
