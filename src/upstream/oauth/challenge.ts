// Reading a `WWW-Authenticate: Bearer ...` challenge (RFC 6750, RFC 9728) with the SDK's parser.
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';

/** The parameters of a challenge: resource metadata URL, scope, error. */
export function challengeOf(
  status: number,
  wwwAuthenticate: string | undefined,
): ReturnType<typeof extractWWWAuthenticateParams> {
  const headers = wwwAuthenticate ? { 'www-authenticate': wwwAuthenticate } : undefined;
  return extractWWWAuthenticateParams(new Response(null, { status, ...(headers ? { headers } : {}) }));
}
