import type { CAC } from 'cac';
import { LOCAL_CALLER } from '../../gateway/index.js';
import { describeConfig, openApp, type GlobalFlags } from '../shared/app.js';
import { clip, formatTable, out, outJson } from '../shared/output.js';

/** `carte servers`: configured servers with their discovery status (never starts one). */
export function registerServers(cli: CAC): void {
  cli
    .command('servers', 'List configured servers and their status')
    .option('--json', 'Print JSON')
    .action(async (flags: GlobalFlags & { json?: boolean }) => {
      const app = await openApp(flags);
      try {
        const servers = app.gateway.listServers(LOCAL_CALLER);
        if (flags.json) return outJson(servers);
        if (servers.length === 0) return out(`no servers in ${describeConfig(app)}`);
        const rows = servers.map((s) => [
          s.id,
          s.state,
          s.status,
          String(s.toolCount),
          clip(s.lastError ?? s.target, 100),
        ]);
        out(formatTable([['SERVER', 'STATE', 'DISCOVERY', 'TOOLS', 'TARGET / LAST ERROR'], ...rows]));
        out(`config: ${describeConfig(app)}`);
      } finally {
        await app.close();
      }
    });
}
