// Opening the authorization page: the program `$BROWSER` names (the CLI reads it and passes it
// here), run with the URL as its one argument, else the platform's opener. No shell is involved.
// child_process loads when a page is opened, not with every command (docs/benchmarks.md, "CLI start").

/** The opener for `platform`: `$BROWSER` when given, else open (macOS), start (Windows), xdg-open. */
export function urlOpener(
  browser: string | undefined,
  platform: NodeJS.Platform,
): (url: string) => Promise<void> {
  const [command, prefix] =
    browser !== undefined && browser !== ''
      ? [browser, []]
      : platform === 'darwin'
        ? ['open', []]
        : platform === 'win32'
          ? ['rundll32', ['url.dll,FileProtocolHandler']]
          : ['xdg-open', []];
  return (url) =>
    new Promise((resolve, reject) => {
      const { spawn } = process.getBuiltinModule('node:child_process');
      const child = spawn(command, [...prefix, url], { stdio: 'ignore', detached: platform !== 'win32' });
      child.once('error', (err) =>
        reject(new Error(`cannot run "${command}" to open the sign-in page: ${err.message}`)),
      );
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    });
}
