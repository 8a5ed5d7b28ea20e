// `carte auth logout`: revokes the tokens where the authorization server offers revocation
// (RFC 7009), before the caller forgets them. A failed revocation is reported, never fatal.
import type { OAuthRecord, OAuthSettings } from './types.js';

/** What revocation did: revoked at the server, none offered, or the server's refusal. */
export type Revocation = 'revoked' | 'not_offered' | { failed: string };

/** Revokes the record's refresh and access tokens at the revocation endpoint, if there is one. */
export async function revokeTokens(record: OAuthRecord, settings: OAuthSettings): Promise<Revocation> {
  const endpoint = (
    record.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined
  )?.revocation_endpoint;
  const tokens = record.tokens;
  if (typeof endpoint !== 'string' || !tokens) return 'not_offered';
  const clientId = settings.clientId ?? record.client?.client_id;
  const secret = settings.clientId ? settings.clientSecret : record.client?.client_secret;
  const pairs: [string, string][] = [
    ...(tokens.refresh_token ? [[tokens.refresh_token, 'refresh_token'] as [string, string]] : []),
    [tokens.access_token, 'access_token'],
  ];
  for (const [token, hint] of pairs) {
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (clientId && secret)
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    else if (clientId) body.set('client_id', clientId);
    try {
      const res = await fetch(endpoint, { method: 'POST', headers, body });
      await res.body?.cancel().catch(() => undefined);
      if (!res.ok) return { failed: `the revocation endpoint answered HTTP ${res.status}` };
    } catch (err) {
      return { failed: (err as Error).message };
    }
  }
  return 'revoked';
}
