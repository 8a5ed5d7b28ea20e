// The `auth:` part of the config schema (docs/security.md, "Team sign-in"): access tokens from the
// team's identity provider, checked by Carte as an OAuth 2.1 resource server (issue 31).
import { z } from 'zod';

/** Carte's scopes, weakest first (the gateway's TOKEN_SCOPES; a test keeps the two equal). */
export const CARTE_SCOPES = ['search', 'call', 'admin'] as const;

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

const httpUrl = (what: string) =>
  z.string().refine(isHttpUrl, { message: `expected the ${what} as an http(s) URL` });

/** One identity provider whose JWT access tokens Carte accepts beside its own tokens. */
export const OidcSchema = z
  .strictObject({
    issuer: httpUrl('issuer')
      .describe(
        'The provider\'s issuer, exactly as its tokens\' "iss" claim says it (Okta: https://DOMAIN/oauth2/default; Entra ID: https://login.microsoftonline.com/TENANT/v2.0; Keycloak: https://HOST/realms/REALM). Required.',
      ),
    audience: z
      .string()
      .min(1)
      .describe(
        'What a token\'s "aud" claim must contain: Carte\'s resource URL (its public /mcp URL, as the protected-resource metadata names it) or the id the provider puts there for Carte\'s API. Required.',
      ),
    jwksUrl: httpUrl('JWKS URL')
      .optional()
      .describe(
        "Where the provider publishes its signing keys (JWKS). No default: the jwks_uri of the issuer's /.well-known/openid-configuration.",
      ),
    maxKeyStalenessHours: z
      .int()
      .min(1)
      .max(720)
      .default(24)
      .describe(
        "While the provider's JWKS cannot be fetched, the keys last fetched keep working for this many hours after that fetch; past it every access token is refused until the provider answers. 1 to 720. Default 24.",
      ),
    projectClaim: z
      .string()
      .min(1)
      .default('carte_project')
      .describe(
        'The claim that names the Carte project a token acts in (a dotted path such as "ext.project" reaches into objects). A token without it is refused. Default "carte_project".',
      ),
    scopesClaim: z
      .string()
      .min(1)
      .default('scope')
      .describe(
        'The claim whose values scopeMap maps to Carte scopes: a space-separated string or an array ("scope" or "scp" for OAuth scopes, "roles" for Entra ID app roles, "realm_access.roles" for Keycloak realm roles). Default "scope".',
      ),
    scopeMap: z
      .record(z.string().min(1), z.array(z.enum(CARTE_SCOPES)).min(1))
      .default({})
      .describe(
        'Each value of scopesClaim that grants Carte scopes, and the scopes it grants, e.g. {"carte:call": ["call"]}. Values not listed grant nothing; a token granted no scope is refused. Default {}.',
      ),
    scopesSupported: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Scopes a client should ask the provider for, listed as scopes_supported in the protected-resource metadata. Default []: none listed.',
      ),
  })
  .describe("JWT access tokens from the team's identity provider (OpenID Connect / OAuth 2.1).");

export const AuthSchema = z
  .strictObject({
    oidc: OidcSchema.optional().describe(
      "JWT access tokens from the team's identity provider, accepted beside Carte's own tokens. No default: only Carte's tokens.",
    ),
  })
  .describe('Who may call `carte serve --http` besides holders of Carte tokens (docs/security.md, "Team sign-in").');
