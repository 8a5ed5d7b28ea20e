#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/cli (built by `npm run build`). A command is done when
// main() resolves; exiting then ends any upstream child a misbehaving server keeps alive.
import('../dist/cli/main.js')
  .then((m) => m.main(process.argv.slice(2)))
  .then(() => process.exit())
  .catch((err) => {
    process.stderr.write(`carte: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(70);
  });
