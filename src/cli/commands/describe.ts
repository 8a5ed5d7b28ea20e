import type { CAC } from 'cac';
import { LOCAL_CALLER, type ToolDetail } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { formatTable, out, outJson } from '../shared/output.js';

/** `carte describe <key>`: one tool's full definition from the stored catalog. */
export function registerDescribe(cli: CAC): void {
  cli
    .command('describe <key>', "Show one tool's schema and annotations")
    .option('--json', 'Print JSON')
    .action(async (key: string, flags: GlobalFlags & { json?: boolean }) => {
      const app = await openApp(flags);
      try {
        const tool = await app.gateway.describeTool(LOCAL_CALLER, key);
        if (flags.json) outJson(tool);
        else out(formatDetail(tool));
      } finally {
        await app.close();
      }
    });
}

function formatDetail(t: ToolDetail): string {
  const lines = [`${t.key}${t.title ? `  (${t.title})` : ''}  [server ${t.serverStatus}]`];
  if (t.description) lines.push('', t.description.trim());
  const schema = t.inputSchema as {
    properties?: Record<string, { type?: unknown; description?: string }>;
    required?: string[];
  };
  const props = Object.entries(schema.properties ?? {});
  lines.push('', props.length ? 'Arguments:' : 'Arguments: none');
  if (props.length) {
    const required = new Set(schema.required ?? []);
    lines.push(
      formatTable(
        props.map(([name, p]) => [
          `  ${name}${required.has(name) ? '' : '?'}`,
          typeLabel(p.type),
          (p.description ?? '').replace(/\s+/g, ' '),
        ]),
      ),
    );
  }
  if (t.annotations) lines.push('', `Annotations: ${JSON.stringify(t.annotations)}`);
  if (t.schemaTruncatedFromBytes)
    lines.push('', `Note: the schema was ${t.schemaTruncatedFromBytes} bytes; a reduced copy is stored.`);
  return lines.join('\n');
}

function typeLabel(type: unknown): string {
  if (Array.isArray(type)) return type.join('|');
  return typeof type === 'string' ? type : 'any';
}
