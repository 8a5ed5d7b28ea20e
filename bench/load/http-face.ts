// `carte serve --http` as the load bench starts it: a token with the call scope made with
// `carte token create`, then the server on a free port, its /mcp URL read from the start message.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, cleanEnv } from '../core/paths.js';
import { runOk } from '../core/proc.js';
import { compare, type CompareResult } from './compare.js';
import { CONFIGS, setupCarte, type CarteSetup } from './configs.js';
import { startEverythingHttp } from './http-upstream.js';

export interface CarteHttp {
  /** The /mcp endpoint. */
  url: string;
  /** A bearer token of project `default` with the call scope. */
  token: string;
  pid: number;
  stderrTail(): string;
  stop(): Promise<void>;
}

export async function startCarteHttp(
  setup: CarteSetup,
  dir: string,
  opts: { timeoutMs?: number; nodeArgs?: readonly string[]; bin?: string } = {},
): Promise<CarteHttp> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const base = ['--config', setup.config, '--data-dir', setup.dataDir];
  const env = setup.env;
  const made = await runOk([...base, 'token', 'create', '--project', 'default', '--scope', 'call'], {
    cwd: dir,
    ...(env && { env }),
  });
  const token = made.stdout.trim();
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), opts.bin ?? BIN, ...base, 'serve', '--http', '--port', '0'],
    {
      cwd: dir,
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let tail = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`carte serve --http printed no URL in ${timeoutMs} ms: ${tail}`)),
      timeoutMs,
    );
    const onData = (c: Buffer) => {
      tail = (tail + c.toString()).slice(-4000);
      const m = /MCP endpoint[^:]*: (http:\/\/\S+\/mcp)/.exec(tail);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`carte serve --http exited with ${code}: ${tail}`)));
  });
  return { url, token, pid: child.pid!, stderrTail: () => tail, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Clients reaching Carte over HTTP (one `carte serve --http`, its upstream everything over stdio)
 * against the same clients calling everything over Streamable HTTP directly, for each era.
 */
export async function httpFaceRows(
  dir: string,
  specs: readonly { sessions: number; era: 'modern' | 'legacy' }[],
  opts: { durationMs: number; rounds: number; warmUpMs: number },
  step: (what: string) => void,
): Promise<CompareResult[]> {
  const results: CompareResult[] = [];
  const upstream = await startEverythingHttp();
  try {
    const carte = await startCarteHttp(await setupCarte(dir, 'face', CONFIGS.stdio()), dir);
    try {
      for (const { sessions, era } of specs) {
        step(`clients over HTTP (${era} era), ${sessions} session(s)`);
        const targets = {
          direct: { kind: 'direct-http', url: upstream.url } as const,
          carte: { kind: 'carte-http', url: carte.url, token: carte.token, era } as const,
          directPid: upstream.pid,
          cartePid: carte.pid,
        };
        const spec = { upstream: 'stdio', face: 'http', era, sessions, workers: 1 } as const;
        results.push(await compare(spec, targets, opts));
      }
    } finally {
      await carte.stop();
    }
  } finally {
    await upstream.stop();
  }
  return results;
}
