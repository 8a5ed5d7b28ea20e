// The provider's keys past auth.oidc.maxKeyStalenessHours (docs/security.md, "Team sign-in"),
// against a real issuer of our own on loopback (test/fixtures/oidc-issuer.ts) whose JWKS can be
// taken down and back. Time is real and short, as in oidc.test.ts: the limits are options here.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startIssuer, type TestIssuer } from '../../../test/fixtures/oidc-issuer.js';
import { createOidcVerifier, type OidcOptions } from '../index.js';

const AUDIENCE = 'https://carte.example.com/mcp';
const PROJECTS = new Set(['default']);
const STALE_MS = 300;
/** Longer than a burst of a few requests takes on a busy machine, short enough to wait for. */
const RETRY_MS = 400;
const ISO_SECOND = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ';

let idp: TestIssuer;
beforeAll(async () => {
  idp = await startIssuer(AUDIENCE);
});
afterAll(() => idp.close());
afterEach(() => {
  idp.down = false;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A verifier whose keys are trusted for STALE_MS; every use past jwksMaxAgeMs fetches them again. */
function verifier(options: Partial<OidcOptions>) {
  const config = {
    issuer: idp.url,
    audience: AUDIENCE,
    jwksUrl: idp.jwksUrl,
    maxKeyStalenessHours: 24,
    projectClaim: 'carte_project',
    scopesClaim: 'scope',
    scopeMap: { 'carte:call': ['call' as const] },
    scopesSupported: [],
  };
  return createOidcVerifier(config, { jwksMaxAgeMs: 0, jwksMaxStaleMs: STALE_MS, ...options });
}

/** Whether a fresh token passes, and the refusal's message when it does not. */
async function attempt(v: ReturnType<typeof verifier>): Promise<string> {
  return v.verify(await idp.sign(), PROJECTS).then(
    () => 'passed',
    (err: unknown) => (err as Error).message,
  );
}

/** The keys fetched once, then one fetch failed (the provider went down) and the cached keys served. */
async function failedOnceWithFreshKeys(v: ReturnType<typeof verifier>): Promise<void> {
  expect(await attempt(v)).toBe('passed');
  idp.down = true;
  expect(await attempt(v)).toBe('passed'); // fetch failed: the cached keys are still trusted
}

describe('keys past the staleness limit', () => {
  it('are fetched on the next request, though a fetch failed less than a cooldown ago', async () => {
    const v = verifier({}); // the default cooldown: one minute
    await failedOnceWithFreshKeys(v);
    await sleep(STALE_MS + 50);
    idp.down = false; // the provider is back
    const before = idp.jwksFetches;
    expect(await attempt(v)).toBe('passed');
    expect(idp.jwksFetches).toBe(before + 1);
  });

  it('with the provider still down: one fetch when they go stale, then failures retried every jwksRetryMs, not every request', async () => {
    const v = verifier({ jwksRetryMs: RETRY_MS });
    await failedOnceWithFreshKeys(v);
    await sleep(STALE_MS + 50);
    const before = idp.jwksFetches;
    const since = new RegExp(
      `^cannot check the access token: the provider's keys at ${idp.jwksUrl} could not be refreshed since ${ISO_SECOND} \\(Expected 200 OK from the JSON Web Key Set HTTP response\\); keys older than ${STALE_MS} ms \\(auth\\.oidc\\.maxKeyStalenessHours\\) are not trusted; no token passes until the provider answers$`,
    );
    expect(await attempt(v)).toMatch(since);
    expect(idp.jwksFetches).toBe(before + 1); // asked at once, not a cooldown after the last failure
    for (let i = 0; i < 5; i++) expect(await attempt(v)).toMatch(since);
    expect(idp.jwksFetches).toBe(before + 1); // a down provider is not asked on every request
    await sleep(RETRY_MS + 50);
    expect(await attempt(v)).toMatch(since);
    expect(idp.jwksFetches).toBe(before + 2);
    idp.down = false;
    await sleep(RETRY_MS + 50);
    expect(await attempt(v)).toBe('passed');
    expect(idp.jwksFetches).toBe(before + 3);
  });

  it('with the provider up, are fetched again before use even when jwksMaxAgeMs is longer', async () => {
    const v = verifier({ jwksMaxAgeMs: 600_000 });
    expect(await attempt(v)).toBe('passed');
    const before = idp.jwksFetches;
    expect(await attempt(v)).toBe('passed');
    expect(idp.jwksFetches).toBe(before); // young keys: from the cache
    await sleep(STALE_MS + 50);
    expect(await attempt(v)).toBe('passed');
    expect(idp.jwksFetches).toBe(before + 1);
  });

  it('with none fetched yet and the provider down, failures are retried every jwksRetryMs', async () => {
    idp.down = true;
    const v = verifier({ jwksRetryMs: RETRY_MS });
    const before = idp.jwksFetches;
    for (let i = 0; i < 3; i++) expect(await attempt(v)).toMatch(/no keys are cached/);
    expect(idp.jwksFetches).toBe(before + 1);
    idp.down = false;
    await sleep(RETRY_MS + 50);
    expect(await attempt(v)).toBe('passed');
  });
});
