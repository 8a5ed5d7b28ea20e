import { didYouMean } from '../problems/did-you-mean.js';
import { reportIssues } from '../problems/issues.js';
import { describeValue, isRecord, type Problems, type Segment } from '../problems/problems.js';
import {
  RemoteServerObject,
  RemoteServerSchema,
  SandboxObject,
  StdioServerObject,
  StdioServerSchema,
  type ServerConfig,
} from '../schema/schema.js';

const STDIO_KEYS = Object.keys(StdioServerObject.shape);
const REMOTE_KEYS = Object.keys(RemoteServerObject.shape);
const ALL_KEYS = [...new Set([...STDIO_KEYS, ...REMOTE_KEYS])];
const SANDBOX_KEYS = Object.keys(SandboxObject.shape);
const keysAt = (at: readonly Segment[]) => (at[0] === 'sandbox' ? SANDBOX_KEYS : undefined);

/** Checks one server as written (variables not yet expanded); undefined when it has errors. */
export function validateServer(raw: unknown, path: Segment[], out: Problems): ServerConfig | undefined {
  if (!isRecord(raw)) {
    out.error(path, `expected an object with "command" or "url", got ${describeValue(raw)}`);
    return undefined;
  }
  const hasCommand = Object.hasOwn(raw, 'command');
  const hasUrl = Object.hasOwn(raw, 'url');
  if (hasCommand && hasUrl) {
    out.error(path, 'has both "command" and "url"; a server needs exactly one');
    return undefined;
  }
  if (!hasCommand && !hasUrl) {
    out.error(path, 'needs "command" (a stdio server) or "url" (a remote server)');
    for (const key of Object.keys(raw).filter((k) => !ALL_KEYS.includes(k))) {
      out.error([...path, key], `unknown key ${JSON.stringify(key)}${didYouMean(key, ALL_KEYS)}`);
    }
    return undefined;
  }
  const result = hasCommand
    ? StdioServerSchema.safeParse(raw, { reportInput: true })
    : RemoteServerSchema.safeParse(raw, { reportInput: true });
  if (result.success) return result.data;
  const [keys, otherKeys, other] = hasCommand
    ? [STDIO_KEYS, REMOTE_KEYS, 'a remote server (one with "url")']
    : [REMOTE_KEYS, STDIO_KEYS, 'a stdio server (one with "command")'];
  const explainKey = (key: string): string | undefined =>
    otherKeys.includes(key) ? `${JSON.stringify(key)} only applies to ${other}` : undefined;
  reportIssues(result.error.issues, { prefix: path, knownKeys: keys, explainKey, keysAt }, out);
  return undefined;
}

/**
 * `oauth.identity: per-user` (issue 41, "Teams"): each caller links their own account, so callers
 * must be told apart by an identity provider (`auth.oidc`), and the grant must be a person's.
 */
export function checkIdentities(
  servers: Readonly<Record<string, ServerConfig>>,
  oidc: boolean,
  out: Problems,
): void {
  for (const [id, s] of Object.entries(servers)) {
    if (s.kind !== 'remote' || s.oauth?.identity !== 'per-user') continue;
    const at = ['servers', id, 'oauth', 'identity'];
    if (!oidc)
      out.error(
        at,
        `server "${id}" has per-user sign-in, which needs callers who sign in to Carte with an identity provider; configure auth.oidc, or set oauth.identity to "shared"`,
      );
    if (s.oauth.grant === 'client_credentials')
      out.error(
        at,
        `server "${id}" signs in with client_credentials (machine to machine), which has no user to link; set oauth.identity to "shared"`,
      );
  }
}
