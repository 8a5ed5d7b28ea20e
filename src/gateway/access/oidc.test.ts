// The identity provider's access tokens (issue 31) against a real issuer of our own on loopback
// (test/fixtures/oidc-issuer.ts): real keys, real jose, real HTTP for discovery and the JWKS.
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CARTE_SCOPES, type OidcConfig } from '../../config/index.js';
import { startIssuer, unsignedToken, type TestIssuer } from '../../../test/fixtures/oidc-issuer.js';
import { ACCEPTED_ALGORITHMS, createOidcVerifier, TOKEN_SCOPES, type OidcOptions } from '../index.js';

const AUDIENCE = 'https://carte.example.com/mcp';
const PROJECTS = new Set(['default', 'team']);
const SCOPE_MAP = { 'carte:call': ['call' as const], 'carte:admin': ['admin' as const] };

let idp: TestIssuer;
beforeAll(async () => {
  idp = await startIssuer(AUDIENCE);
});
afterAll(() => idp.close());
afterEach(() => {
  idp.down = false;
});

function config(extra: Partial<OidcConfig> = {}): OidcConfig {
  return {
    issuer: idp.url,
    audience: AUDIENCE,
    jwksUrl: idp.jwksUrl,
    maxKeyStalenessHours: 24,
    projectClaim: 'carte_project',
    scopesClaim: 'scope',
    scopeMap: SCOPE_MAP,
    scopesSupported: [],
    ...extra,
  };
}

const verifier = (extra: Partial<OidcConfig> = {}, options: Partial<OidcOptions> = {}) =>
  createOidcVerifier(config(extra), options);

/** The refusal's message (the test fails if the token passes). */
async function refused(token: string, v = verifier()): Promise<string> {
  const err = await v.verify(token, PROJECTS).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ code: 'unauthorized' });
  const message = (err as Error).message;
  expect(message).not.toContain(token.split('.')[2] || token); // never the token, nor its signature
  return message;
}

const ISO_SECOND = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ';
const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const now = () => Math.floor(Date.now() / 1000);

describe('accepted tokens', () => {
  it.each(['RS256', 'ES256'] as const)(
    'a %s token names its project, scopes, subject and client',
    async (alg) => {
      const other = alg === 'RS256' ? idp : await startIssuer(AUDIENCE, alg);
      try {
        const v = createOidcVerifier({ ...config(), issuer: other.url, jwksUrl: other.jwksUrl });
        expect(await v.verify(await other.sign(), PROJECTS)).toEqual({
          projectId: 'default',
          scopes: ['call'],
          subject: 'alice@example.com',
          client: 'claude-code',
        });
      } finally {
        if (other !== idp) await other.close();
      }
    },
  );

  it('finds the keys through the discovery document when no jwksUrl is set, once', async () => {
    const own = await startIssuer(AUDIENCE);
    try {
      const v = createOidcVerifier({ ...config(), issuer: own.url, jwksUrl: undefined });
      await v.verify(await own.sign({ scope: 'carte:admin' }), PROJECTS);
      await v.verify(await own.sign({ client_id: 'cli', azp: undefined }), PROJECTS);
      expect([own.discoveries, own.jwksFetches]).toEqual([1, 1]);
    } finally {
      await own.close();
    }
  });

  it('reads client_id when there is no azp, array scopes and dotted claim paths (Keycloak, Entra)', async () => {
    const keycloak = verifier({ scopesClaim: 'realm_access.roles', projectClaim: 'ext.project' });
    const token = await idp.sign({
      realm_access: { roles: ['offline_access', 'carte:admin'] },
      ext: { project: 'team' },
      azp: undefined,
      client_id: 'agent-7',
      scope: undefined,
    });
    expect(await keycloak.verify(token, PROJECTS)).toMatchObject({
      projectId: 'team',
      scopes: ['admin'],
      client: 'agent-7',
    });
    const entra = verifier({ scopesClaim: 'roles', projectClaim: 'https://carte/project' });
    const roles = await idp.sign({ roles: ['carte:call', 'carte:admin'], 'https://carte/project': 'team' });
    expect(await entra.verify(roles, PROJECTS)).toMatchObject({
      projectId: 'team',
      scopes: ['call', 'admin'],
    });
  });

  it("the config's scope names are the gateway's", () => {
    expect(CARTE_SCOPES).toEqual(TOKEN_SCOPES);
  });
});

describe('refused tokens', () => {
  it('an expired token', async () => {
    const exp = now() - 120;
    expect(await refused(await idp.sign({ exp, iat: exp - 300 }))).toBe(
      `the access token expired at ${iso(exp)}; sign in again`,
    );
  });

  it('a token expired less than the clock skew ago still passes; the skew is 30 s', async () => {
    expect(await verifier().verify(await idp.sign({ exp: now() - 10 }), PROJECTS)).toMatchObject({
      projectId: 'default',
    });
  });

  it('a token not yet valid', async () => {
    const nbf = now() + 120;
    expect(await refused(await idp.sign({ nbf }))).toBe(
      `the access token is not valid before ${iso(nbf)}; check the clocks of Carte and the provider`,
    );
  });

  it('a token from another issuer', async () => {
    expect(await refused(await idp.sign({ iss: 'https://evil.example.com' }))).toBe(
      `the access token was issued by "https://evil.example.com", not by the configured issuer "${idp.url}"`,
    );
  });

  it('a token with the wrong audience', async () => {
    expect(await refused(await idp.sign({ aud: 'account' }))).toBe(
      `the access token is for "account", not for this Carte ("${AUDIENCE}"); ask the provider for a token for ${AUDIENCE}`,
    );
  });

  it('a token for another resource on the same host', async () => {
    const other = ['https://carte.example.com/other-mcp', 'https://api.example.com'];
    expect(await refused(await idp.sign({ aud: other }))).toBe(
      `the access token is for ${JSON.stringify(JSON.stringify(other))}, not for this Carte ("${AUDIENCE}"); ask the provider for a token for ${AUDIENCE}`,
    );
  });

  it('an unsigned token (alg none)', async () => {
    const claims = { iss: idp.url, aud: AUDIENCE, sub: 'x', exp: now() + 60, carte_project: 'default' };
    expect(await refused(unsignedToken(claims))).toBe(
      `the access token is unsigned (alg "none"); Carte accepts only the provider's public-key algorithms (${ACCEPTED_ALGORITHMS.join(', ')})`,
    );
  });

  it("an HS256 token signed with the provider's public key (algorithm confusion)", async () => {
    const before = idp.jwksFetches;
    const secret = new TextEncoder().encode(await idp.publicPem());
    const token = await new SignJWT({ carte_project: 'default', scope: 'carte:admin' })
      .setProtectedHeader({ alg: 'HS256', kid: idp.kid })
      .setIssuer(idp.url)
      .setAudience(AUDIENCE)
      .setSubject('mallory')
      .setExpirationTime('5m')
      .sign(secret);
    expect(await refused(token)).toBe(
      `the access token is signed with "HS256"; Carte accepts only the provider's public-key algorithms (${ACCEPTED_ALGORITHMS.join(', ')})`,
    );
    expect(idp.jwksFetches).toBe(before); // refused before any key is looked up
  });

  it('a token whose signature is not the key it names', async () => {
    const [head, body] = (await idp.sign()).split('.');
    const forged = (await idp.sign({ sub: 'mallory' })).split('.')[2];
    expect(await refused(`${head}.${body}x.${forged}`)).toMatch(/^the (access|bearer) token/);
    const swapped = `${head}.${(await idp.sign({ sub: 'mallory' })).split('.')[1]}.${(await idp.sign()).split('.')[2]}`;
    expect(await refused(swapped)).toBe(
      `the access token's signature does not verify with the provider's key kid "${idp.kid}"`,
    );
  });

  it('a token without a subject, or without the project claim, naming the claim', async () => {
    expect(await refused(await idp.sign({ sub: undefined }))).toBe('the access token has no "sub" claim');
    expect(await refused(await idp.sign({ sub: 42 }))).toBe(
      'the access token\'s "sub" claim is "42", not a subject',
    );
    expect(await refused(await idp.sign({ carte_project: undefined }))).toBe(
      'the access token has no "carte_project" claim naming its Carte project (auth.oidc.projectClaim)',
    );
  });

  it('a token naming a project not configured here', async () => {
    expect(await refused(await idp.sign({ carte_project: 'payroll' }))).toBe(
      'the access token names project "payroll", which is not configured in this Carte',
    );
  });

  it('a token whose scopes map to no Carte scope', async () => {
    expect(await refused(await idp.sign({ scope: 'openid email' }))).toBe(
      `the access token's "scope" claim ("openid email") grants no Carte scope; auth.oidc.scopeMap maps "carte:call", "carte:admin"`,
    );
  });
});

describe('the key cache', () => {
  it('an unknown kid is refused after one JWKS refresh, and the next one within the cooldown fetches nothing', async () => {
    const v = verifier({}, { jwksCooldownMs: 0 });
    await v.verify(await idp.sign(), PROJECTS); // the keys are cached
    const unpublished = await idp.addKey(false);
    const before = idp.jwksFetches;
    expect(await refused(await idp.sign({}, { kid: unpublished }), v)).toBe(
      `the provider's key set at ${idp.jwksUrl} has no key kid "${unpublished}" for the access token, even fetched again (at most once every 0 s)`,
    );
    expect(idp.jwksFetches).toBe(before + 1);

    const limited = verifier(); // the default cooldown: one minute
    await limited.verify(await idp.sign(), PROJECTS);
    const fetched = idp.jwksFetches;
    for (let i = 0; i < 3; i++) await refused(await idp.sign({}, { kid: unpublished }), limited);
    expect(idp.jwksFetches).toBe(fetched); // fetched less than a minute ago: not again
  });

  it('a key the provider publishes later is fetched on its first token once the cooldown is over', async () => {
    const v = verifier({}, { jwksCooldownMs: 200 });
    await v.verify(await idp.sign(), PROJECTS);
    const rotated = await idp.addKey();
    await new Promise((r) => setTimeout(r, 250));
    expect(await v.verify(await idp.sign({}, { kid: rotated }), PROJECTS)).toMatchObject({
      subject: 'alice@example.com',
    });
  });

  it('with the JWKS endpoint down, cached keys keep working; it is not asked again within the cooldown', async () => {
    const warnings: string[] = [];
    const v = verifier({}, { jwksMaxAgeMs: 0, warn: (m) => warnings.push(m) }); // every use refetches
    await v.verify(await idp.sign(), PROJECTS);
    idp.down = true;
    const before = idp.jwksFetches;
    for (let i = 0; i < 3; i++)
      expect(await v.verify(await idp.sign(), PROJECTS)).toMatchObject({ projectId: 'default' });
    expect(idp.jwksFetches).toBe(before + 1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^oidc: the provider's keys at ${idp.jwksUrl} cannot be fetched \\(Expected 200 OK from the JSON Web Key Set HTTP response\\): using the keys fetched at ${ISO_SECOND} until ${ISO_SECOND}$`,
      ),
    );
  });

  it('with the JWKS endpoint down longer than the staleness limit, every token is refused saying since when', async () => {
    const warnings: string[] = [];
    const options = {
      jwksMaxAgeMs: 0,
      jwksCooldownMs: 0,
      jwksMaxStaleMs: 200,
      warn: (m: string) => warnings.push(m),
    };
    const v = verifier({}, options);
    const fetchedAfter = Date.now() - 1000; // the message's time is to the second
    await v.verify(await idp.sign(), PROJECTS);
    idp.down = true;
    await new Promise((r) => setTimeout(r, 250));
    const message = await refused(await idp.sign(), v);
    const since = new RegExp(
      `^cannot check the access token: the provider's keys at ${idp.jwksUrl} could not be refreshed since (${ISO_SECOND}) \\(Expected 200 OK from the JSON Web Key Set HTTP response\\); keys older than 200 ms \\(auth\\.oidc\\.maxKeyStalenessHours\\) are not trusted; no token passes until the provider answers$`,
    ).exec(message);
    expect(since, message).not.toBeNull();
    expect(Date.parse(since![1]!)).toBeGreaterThanOrEqual(fetchedAfter);
    expect(warnings.at(-1)).toMatch(
      /^oidc: refusing every access token: the provider's keys at \S+ could not be refreshed since /,
    );

    idp.down = false; // the provider answers again: its keys are fetched and trusted afresh
    expect(await v.verify(await idp.sign(), PROJECTS)).toMatchObject({ projectId: 'default' });
  });

  it('with the JWKS endpoint down and no key fetched yet, no token passes and the error says why', async () => {
    idp.down = true;
    expect(await refused(await idp.sign())).toBe(
      `cannot check the access token: cannot fetch the provider's keys from ${idp.jwksUrl}: Expected 200 OK from the JSON Web Key Set HTTP response; no keys are cached; no token passes until the provider answers`,
    );
    const gone = await startIssuer(AUDIENCE);
    await gone.close();
    const v = createOidcVerifier({ ...config(), issuer: gone.url, jwksUrl: undefined });
    expect(await refused(await idp.sign({ iss: gone.url }), v)).toMatch(
      new RegExp(
        `^cannot check the access token: cannot fetch the provider's keys from ${gone.url}/\\.well-known/openid-configuration: fetch failed \\(ECONNREFUSED\\); no keys are cached`,
      ),
    );
  });
});
