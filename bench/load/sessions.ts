// MCP client sessions for the load bench: straight to the everything server, or through a
// `carte serve` process (one per session: a stdio server has exactly one client).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, cleanEnv, referenceEntry } from '../core/paths.js';

/** What one call returned, as the load bench counts it. */
export interface CallResult {
  ok: boolean;
  /** For failures: Carte's error code (or "tool error", or the thrown error's message). */
  error?: string;
  /** For failures: the text the agent would read. */
  message?: string;
}

export interface Session {
  /** Calls `server/tool` with `args` (through `call_tool` for Carte, by name for a direct session). */
  call(key: string, args: Record<string, unknown>): Promise<CallResult>;
  /** Pid of the process this session talks to over stdio (Carte or the direct server); null over HTTP. */
  pid: number | null;
  /** The last lines the process wrote to stderr. */
  stderrTail(): string;
  close(): Promise<void>;
}

export type Target =
  | { kind: 'direct-stdio' }
  | { kind: 'direct-http'; url: string }
  | {
      kind: 'carte';
      config: string;
      dataDir: string;
      nodeArgs?: readonly string[];
      bin?: string;
      /** Extra `carte serve` flags (`--standalone`). */
      serveArgs?: readonly string[];
    }
  /** `carte serve --http`: one process for every session, each session its own MCP client. */
  | { kind: 'carte-http'; url: string; token: string; era: 'modern' | 'legacy' };

const INFO = { name: 'carte-bench-load', version: '0' };

/** Opens one session and lists its tools once (so both arms start from the same state). */
export async function openSession(target: Target): Promise<Session> {
  const modern = target.kind === 'carte-http' && target.era === 'modern';
  const client = new Client(INFO, modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  let tail = '';
  let pid: number | null = null;
  if (target.kind === 'direct-http') {
    await client.connect(new StreamableHTTPClientTransport(new URL(target.url)));
  } else if (target.kind === 'carte-http') {
    const headers = { authorization: `Bearer ${target.token}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers } }),
    );
  } else {
    const args =
      target.kind === 'carte'
        ? [
            ...(target.nodeArgs ?? []),
            target.bin ?? BIN,
            'serve',
            '--config',
            target.config,
            '--data-dir',
            target.dataDir,
            ...(target.serveArgs ?? []),
          ]
        : [referenceEntry('server-everything'), 'stdio'];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: cleanEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    // Drain stderr (a full pipe would block the child) and keep the end for error reports.
    transport.stderr?.on('data', (c: Buffer) => (tail = (tail + c.toString()).slice(-2000)));
    await client.connect(transport);
    pid = transport.pid;
  }
  await client.listTools();
  const viaCarte = target.kind === 'carte' || target.kind === 'carte-http';
  return {
    pid,
    stderrTail: () => tail,
    close: () => client.close(),
    call: async (key, args) => {
      try {
        const result = viaCarte
          ? await client.callTool({ name: 'call_tool', arguments: { key, arguments: args } })
          : await client.callTool({ name: key.slice(key.indexOf('/') + 1), arguments: args });
        if (result.isError !== true) return { ok: true };
        const code = (result._meta?.['carte/error'] as { code?: string } | undefined)?.code;
        const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
        return { ok: false, error: code ?? 'tool error', message: first?.text ?? '' };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return { ok: false, error: message.slice(0, 120), message };
      }
    },
  };
}

/** Opens `n` sessions at once. */
export function openSessions(target: Target, n: number): Promise<Session[]> {
  return Promise.all(Array.from({ length: n }, () => openSession(target)));
}

export async function closeAll(sessions: readonly Session[]): Promise<void> {
  await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
}
