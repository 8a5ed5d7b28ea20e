import { isAbsolute, join } from 'node:path';
import { quote } from '../../errors.js';
import { expandTemplate, type TemplateContext } from '../variables/interpolate.js';
import type { Problems, Segment } from '../problems/problems.js';
import type { ServerConfig } from '../schema/schema.js';

export interface ResolveContext extends TemplateContext {
  /** Absolute folder of the config file; relative `cwd` values are taken from it. */
  configDir?: string;
}

/**
 * Expands variables in command, args, env values, cwd, url and header values, and checks what
 * only makes sense afterwards (a non-empty command, an http(s) URL). Undefined on any error.
 */
export function resolveServer(
  server: ServerConfig,
  path: Segment[],
  ctx: ResolveContext,
  out: Problems,
): ServerConfig | undefined {
  let failed = false;
  const expand = (raw: string, at: Segment[]): string => {
    const r = expandTemplate(raw, ctx);
    if (r.ok) return r.value;
    out.error([...path, ...at], r.message);
    failed = true;
    return raw;
  };
  const expandAll = (record: Record<string, string>, key: string): Record<string, string> =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expand(v, [key, k])]));

  if (server.kind === 'stdio') {
    const command = expand(server.command, ['command']);
    const args = server.args.map((a, i) => expand(a, ['args', i]));
    const env = expandAll(server.env, 'env');
    const cwd =
      server.cwd === undefined ? undefined : fromConfigDir(expand(server.cwd, ['cwd']), ctx.configDir);
    if (failed) return undefined;
    if (command.trim() === '') {
      out.error([...path, 'command'], `${quote(server.command)} expands to an empty command`);
      return undefined;
    }
    return { ...server, command, args, env, ...(cwd === undefined ? {} : { cwd }) };
  }
  const url = expand(server.url, ['url']);
  const headers = expandAll(server.headers, 'headers');
  const oauth = server.oauth && resolveOAuth(server.oauth, expand, ctx.configDir);
  if (failed) return undefined;
  // Quote the URL as written: the expanded one may carry a secret from the environment.
  if (!isHttpUrl(url)) {
    out.error([...path, 'url'], `${quote(server.url)} is not an http:// or https:// URL`);
    return undefined;
  }
  return { ...server, url, headers, ...(oauth ? { oauth } : {}) };
}

type OAuthConfig = NonNullable<Extract<ServerConfig, { kind: 'remote' }>['oauth']>;

/** The client secrets and the key file may come from the environment; the key file from the config's folder. */
function resolveOAuth(
  oauth: OAuthConfig,
  expand: (raw: string, at: Segment[]) => string,
  configDir: string | undefined,
): OAuthConfig {
  const { clientId, clientSecret, privateKeyFile } = oauth;
  return {
    ...oauth,
    ...(clientId ? { clientId: expand(clientId, ['oauth', 'clientId']) } : {}),
    ...(clientSecret ? { clientSecret: expand(clientSecret, ['oauth', 'clientSecret']) } : {}),
    ...(privateKeyFile
      ? { privateKeyFile: fromConfigDir(expand(privateKeyFile, ['oauth', 'privateKeyFile']), configDir) }
      : {}),
  };
}

/** True for an absolute http:// or https:// URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function fromConfigDir(cwd: string, configDir: string | undefined): string {
  return configDir === undefined || isAbsolute(cwd) ? cwd : join(configDir, cwd);
}
