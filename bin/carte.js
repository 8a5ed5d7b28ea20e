#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/cli, bundled into dist/carte (both built by `npm run build`). A command is done when
// main() resolves; the process then ends by itself once stdout has drained, because every command
// closes what it opened (a pipe gets the whole output: issue 25). If a handle still holds the
// process after the output is written, a grace timer that does not itself hold it ends the
// process and names the leak, instead of hanging a script forever.
const GRACE_MS = 5000;

process.stdout.on('error', (err) => {
  // The reader went away (`carte audit export | head`): stop writing, as other Unix tools do.
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

// Carte needs Node 22.12 or later (package.json's engines): on Node 20 its SQLite driver crashes the process
// with a segmentation fault instead of an error, so say so first, with the fix.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `carte: needs Node.js 22.12 or later, and this is ${process.version}; install Node 22 or 24 LTS\n`,
  );
  process.exit(78);
}

// Compiled code of the CLI's chunks is cached on disk (Node's module compile cache, in the OS temp dir
// unless NODE_COMPILE_CACHE names one), so a command does not compile them again at every start.
// docs/benchmarks.md, "CLI start", has what it saves.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();

import('../dist/carte/main.js')
  .then((m) => m.main(process.argv.slice(2)))
  .catch((err) => {
    process.stderr.write(`carte: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 70;
  })
  .then(() => {
    const leaked = () => {
      const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap' && r !== 'Timeout');
      process.stderr.write(
        `carte: still running ${GRACE_MS} ms after the command ended (${open.join(', ')}); exiting\n`,
      );
      process.exit();
    };
    process.stdout.write('', () => setTimeout(leaked, GRACE_MS).unref());
  });
