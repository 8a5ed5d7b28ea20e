// Token acts leave admin rows in the audit log (docs/security.md, "Audit log"), on both engines:
// which token, its project, scopes and expiry, and who acted; never the secret or its hash.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from '../store/test-engines.js';
import {
  AuditLog,
  createProjectTokenAudited,
  createToken,
  createTokenAudited,
  revokeProjectTokenAudited,
  revokeTokenAudited,
  type CallerContext,
  type Store,
  type TokenSite,
} from './index.js';

const T0 = Date.UTC(2026, 10, 27, 10, 0, 0);
const DAY = 86_400_000;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A site over `store`, and an admin token of project "web" named "admin-bot" acting there. */
async function setup(store: Store): Promise<{ site: TokenSite; admin: CallerContext; secrets: string[] }> {
  const site = { store, audit: new AuditLog(store, quiet) };
  const made = await createToken(store, { project: 'web', name: 'admin-bot', scopes: ['admin'] }, T0);
  const admin = { projectId: 'web', scopes: ['admin'], tokenId: made.id, requestId: 'req-1' };
  return { site, admin, secrets: [made.token] };
}

/** The admin rows, oldest first, once every pending write is done. */
async function adminRows(site: TokenSite) {
  await site.audit.settle();
  return (await site.store.activity.audit()).filter((r) => r.kind === 'admin').reverse();
}

/**
 * [outcome, detail] pairs in detail order: rows written in one millisecond may reach PostgreSQL in
 * either order (each admin row is its own write, on any pool connection), so rows compare as a set.
 */
function sorted(pairs: (string | null)[][]): (string | null)[][] {
  return [...pairs].sort((x, y) => String(x[1]).localeCompare(String(y[1])));
}

/** No secret, nor its sha256, nor any 8 characters of either, anywhere in the serialised rows. */
function expectNoSecret(rows: unknown, secrets: readonly string[]) {
  const text = JSON.stringify(rows);
  for (const secret of secrets) {
    const body = secret.slice('carte_'.length);
    for (let i = 0; i + 8 <= body.length; i++) expect(text).not.toContain(body.slice(i, i + 8));
    expect(text).not.toContain(sha256(secret));
  }
}

describe.each(testEngines(afterEach))('token acts in the audit log on $name', (engine) => {
  it("an admin token's create and revoke name the token and the admin token that acted", async () => {
    const { site, admin, secrets } = await setup(await engine.open());
    const made = await createProjectTokenAudited(
      site,
      admin,
      { name: 'ci', scopes: ['call', 'search'], expiresInMs: 30 * DAY },
      T0,
    );
    secrets.push(made.token);
    await revokeProjectTokenAudited(site, admin, made.id, T0 + 1);
    await revokeProjectTokenAudited(site, admin, made.id, T0 + 2);
    const rows = await adminRows(site);
    const by = `by token ${admin.tokenId} "admin-bot"`;
    const token = `${made.id} "ci" in project "web": scopes call, search; expires 2026-12-27T10:00:00Z`;
    expect(sorted(rows.map((r) => [r.outcome, r.detail]))).toEqual(
      sorted([
        ['ok', `token create ${token}; ${by}`],
        ['ok', `token revoke ${token}; ${by}`],
        ['ok', `token revoke ${token} (already revoked at 2026-11-27T10:00:00Z); ${by}`],
      ]),
    );
    expect(rows.find((r) => r.detail?.startsWith('token create'))).toMatchObject({
      project: 'web',
      tokenId: admin.tokenId,
      requestId: 'req-1',
      key: null,
    });
    expectNoSecret(rows, secrets);
  });

  it("a bearer's refused attempts are rows too, with the error code and what was asked", async () => {
    const { site, admin, secrets } = await setup(await engine.open());
    const reader = { projectId: 'web', scopes: ['call'], subject: 'alice@example.com' };
    const attempts = [
      () => createProjectTokenAudited(site, admin, { scopes: ['admin'], expiresInMs: 365 * DAY }, T0),
      () => createProjectTokenAudited(site, reader, { name: 'mine', scopes: ['admin'] }, T0),
      () => revokeProjectTokenAudited(site, admin, 'tok_nothere', T0),
      () => revokeProjectTokenAudited(site, admin, secrets[0]!, T0),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow();
    const rows = await adminRows(site);
    const by = `by token ${admin.tokenId} "admin-bot"`;
    expect(sorted(rows.map((r) => [r.outcome, r.detail]))).toEqual(
      sorted([
        ['bad_input', `token create in project "web": scopes "admin"; expires 2027-11-27T10:00:00Z; ${by}`],
        [
          'denied',
          'token create named "mine" in project "web": scopes "admin"; expires never; by subject "alice@example.com"',
        ],
        ['bad_input', `token revoke "tok_nothere"; ${by}`],
        ['bad_input', `token revoke by its secret; ${by}`],
      ]),
    );
    expect(rows.find((r) => r.outcome === 'denied')).toMatchObject({
      subject: 'alice@example.com',
      tokenId: null,
    });
    expect(await site.store.tokens.list()).toHaveLength(1); // only the admin token
    expectNoSecret(rows, secrets);
  });

  it('the CLI acts as the local user: its rows are in the token\'s project, "by the CLI"', async () => {
    const { site, secrets } = await setup(await engine.open());
    const input = { project: 'ops', scopes: ['admin'], projects: new Set(['web', 'ops']) };
    const made = await createTokenAudited(site, input, T0);
    secrets.push(made.token);
    await revokeTokenAudited(site, made.token, T0 + 1); // by the secret itself
    await expect(createTokenAudited(site, { ...input, project: 'nope' }, T0)).rejects.toThrow(
      'unknown project "nope"',
    );
    const rows = await adminRows(site);
    const token = `${made.id} in project "ops": scopes admin; expires never`;
    expect(rows.map((r) => [r.project, r.tokenId, r.outcome, r.detail])).toEqual([
      ['ops', null, 'ok', `token create ${token}; by the CLI`],
      ['ops', null, 'ok', `token revoke ${token}; by the CLI`],
    ]);
    expectNoSecret(rows, secrets);
  });
});
