// The bearer token for Carte's own node:http path (plain-http.ts), from the same provider the SDK
// transport uses: the token before each request (refreshed when about to expire), and on a 401 one
// run of `auth()` (a refresh, or the sign-in it cannot do alone) before one retry; on a 403
// insufficient_scope, a step-up: `auth()` for the union of the granted and the asked scopes.
import { auth, computeScopeUnion } from '@modelcontextprotocol/client';
import { challengeOf } from './challenge.js';
import type { CarteOAuthProvider } from './provider.js';
import { SignInRequired } from './sign-in-needed.js';

/** Bearer tokens for one upstream's plain HTTP calls. */
export interface Bearer {
  token(): Promise<string | undefined>;
  /** Called once on a 401 with its `WWW-Authenticate`; resolves when a retry may succeed. */
  onUnauthorized(wwwAuthenticate: string | undefined): Promise<void>;
  /** Called once on a 403 whose challenge says `insufficient_scope`; resolves when a retry may succeed. */
  onInsufficientScope(wwwAuthenticate: string): Promise<void>;
}

/** The plain path's bearer over `provider`, for the server at `serverUrl`. */
export function bearerOf(serverId: string, serverUrl: string, provider: CarteOAuthProvider): Bearer {
  let sent: string | undefined;
  return {
    token: async () => (sent = (await provider.tokens())?.access_token),
    onInsufficientScope: async (wwwAuthenticate) => {
      provider.noteChallenge(wwwAuthenticate);
      const { resourceMetadataUrl, scope } = challengeOf(403, wwwAuthenticate);
      const granted = (await provider.tokens())?.scope;
      // A refresh cannot widen the scopes (RFC 6749, section 6): only a new authorization can.
      const result = await auth(provider, {
        serverUrl,
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        scope: computeScopeUnion(granted, scope) ?? '',
        forceReauthorization: true,
      });
      if (result !== 'AUTHORIZED')
        throw new SignInRequired(`server "${serverId}" asks for more scopes than its sign-in grants`, scope);
    },
    onUnauthorized: async (wwwAuthenticate) => {
      provider.noteChallenge(wwwAuthenticate);
      const { resourceMetadataUrl, scope } = challengeOf(401, wwwAuthenticate);
      // One refresh across replicas: skipped when another one replaced the refused token meanwhile.
      await provider.afterRefusal(sent, async () => {
        const result = await auth(provider, {
          serverUrl,
          ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
          ...(scope ? { scope } : {}),
        });
        if (result !== 'AUTHORIZED')
          throw new SignInRequired(`server "${serverId}" needs a person to sign in again`);
      });
    },
  };
}
