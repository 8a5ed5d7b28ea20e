import type { CAC } from 'cac';
import { LOCAL_CALLER } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { parseJsonFlag } from '../shared/flags.js';
import { note, out, outJson } from '../shared/output.js';

/** `carte call <key> --args JSON`: call one upstream tool (starts its server if needed). */
export function registerCall(cli: CAC): void {
  cli
    .command('call <key>', 'Call a tool by key')
    .option('--args <json>', 'Arguments as a JSON object')
    .option('--json', 'Print the raw result as JSON')
    .action(async (key: string, flags: GlobalFlags & { args?: string; json?: boolean }) => {
      const app = await openApp(flags);
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      process.once('SIGINT', onSigint);
      try {
        const args = parseJsonFlag('--args', flags.args);
        const result = await app.gateway.callTool(LOCAL_CALLER, key, args, {
          signal: abort.signal,
          onProgress: (p) =>
            note(`progress ${p.progress}${p.total ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}`),
        });
        if (flags.json) outJson(result);
        else out(formatResult(result));
        if (result.isError === true) process.exitCode = 1;
      } finally {
        process.off('SIGINT', onSigint);
        await app.close();
      }
    });
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
