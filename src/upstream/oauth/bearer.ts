// The bearer token for Carte's own node:http path (plain-http.ts), from the same provider the SDK
// transport uses: the token before each request (refreshed when about to expire), and on a 401 one
// run of `auth()` (a refresh, or the sign-in it cannot do alone) before one retry.
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { CarteOAuthProvider } from './provider.js';
import { SignInRequired } from './sign-in-needed.js';

/** Bearer tokens for one upstream's plain HTTP calls. */
export interface Bearer {
  token(): Promise<string | undefined>;
  /** Called once on a 401 with its `WWW-Authenticate`; resolves when a retry may succeed. */
  onUnauthorized(wwwAuthenticate: string | undefined): Promise<void>;
}

/** The plain path's bearer over `provider`, for the server at `serverUrl`. */
export function bearerOf(serverId: string, serverUrl: string, provider: CarteOAuthProvider): Bearer {
  return {
    token: async () => (await provider.tokens())?.access_token,
    onUnauthorized: async (wwwAuthenticate) => {
      const headers = wwwAuthenticate ? { 'www-authenticate': wwwAuthenticate } : undefined;
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(
        new Response(null, { status: 401, ...(headers ? { headers } : {}) }),
      );
      const result = await auth(provider, {
        serverUrl,
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        ...(scope ? { scope } : {}),
      });
      if (result !== 'AUTHORIZED')
        throw new SignInRequired(`server "${serverId}" needs a person to sign in again`);
    },
  };
}
