import type { CAC } from 'cac';
import { LOCAL_CALLER } from '../../gateway/index.js';
import { openApp, type App, type GlobalFlags } from '../shared/app.js';
import { parseJsonFlag } from '../shared/flags.js';
import { cliElicitor } from '../shared/elicit-form.js';
import { note, out, outJson } from '../shared/output.js';
import { MAX_SIGN_INS, canSignInHere, signInAsked, signInFromTerminal } from '../shared/sign-in.js';

/** `carte call <key> --args JSON`: call one upstream tool (starts its server if needed). */
export function registerCall(cli: CAC): void {
  cli
    .command('call <key>', 'Call a tool by key')
    .option('--args <json>', 'Arguments as a JSON object')
    .option('--json', 'Print the raw result as JSON')
    .option('--yes', "Accept a form the server asks for during the call with the form's defaults")
    .action(async (key: string, flags: GlobalFlags & { args?: string; json?: boolean; yes?: boolean }) => {
      const app = await openApp(flags, 'warn', { answersElicitation: true });
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      process.once('SIGINT', onSigint);
      try {
        const args = parseJsonFlag('--args', flags.args);
        const call = () =>
          app.gateway.callTool(LOCAL_CALLER, key, args, {
            signal: abort.signal,
            elicit: cliElicitor(flags.yes === true),
            onProgress: (p) =>
              note(
                `progress ${p.progress}${p.total ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}`,
              ),
          });
        const result = await withSignIn(app, call);
        if (flags.json) outJson(result);
        else out(formatResult(result));
        if (result.isError === true) process.exitCode = 1;
      } finally {
        process.off('SIGINT', onSigint);
        await app.close();
      }
    });
}

/**
 * Runs `call`; where it needs a sign-in (or more scopes) and a person can sign in here, signs in
 * and runs it again, at most MAX_SIGN_INS times; otherwise its error names `carte auth login <id>`.
 */
async function withSignIn<T>(app: App, call: () => Promise<T>): Promise<T> {
  for (let signIns = 0; ; signIns++) {
    try {
      return await call();
    } catch (err) {
      const asked = signInAsked(err);
      if (!asked || signIns >= MAX_SIGN_INS || !canSignInHere()) throw err;
      note(
        `server "${asked.server}" needs a sign-in${asked.scope ? ` with the scope "${asked.scope}"` : ''}`,
      );
      await signInFromTerminal(app, asked.server, asked.scope);
    }
  }
}

function formatResult(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  const parts = content.map((c) =>
    c.type === 'text' && typeof c.text === 'string' ? c.text : JSON.stringify(c),
  );
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  return `${result.isError === true ? 'tool error: ' : ''}${parts.join('\n')}`;
}
