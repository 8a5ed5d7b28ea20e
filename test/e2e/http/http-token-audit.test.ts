// Token acts over REST (what the web menu's Tokens page sends) leave admin rows in the audit log,
// read back through the REST audit routes: which token, its project, scopes and expiry, and the
// admin token that acted; never the secret or its hash (docs/security.md, "Audit log").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile } from '../../../src/config/index.js';
import {
  compileRules,
  createToken,
  Gateway,
  openStore,
  projectsFromConfig,
  serversFromConfig,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, type HttpApp } from '../../../src/http/index.js';
import { memoryLogger, tempDir } from '../helpers.js';

const tmp = tempDir('carte-http-token-audit-');
const configPath = join(tmp.dir, 'carte.yaml');
writeFileSync(configPath, 'servers: {}\nprojects:\n  web: { servers: [] }\n  ops: { servers: [] }\n');

let store: Store;
let gateway: Gateway;
let app: HttpApp;
let admin: { id: string; token: string };
let opsAdmin: string;
const secrets: string[] = [];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  const config = loadConfigFile(configPath, { env: {} }).config!;
  store = await openStore(join(tmp.dir, 'carte.db'));
  gateway = await Gateway.open({
    servers: serversFromConfig(config),
    store,
    logger: memoryLogger(),
    rules: compileRules(config.rules),
    projects: projectsFromConfig(config),
  });
  admin = await createToken(store, { project: 'web', name: 'admin-bot', scopes: ['admin'] }, Date.now());
  opsAdmin = (await createToken(store, { project: 'ops', scopes: ['admin'] }, Date.now())).token;
  secrets.push(admin.token, opsAdmin);
  app = createHttpApp({ gateway, store, configPath, env: {}, dataDir: tmp.dir });
});

afterAll(async () => {
  await app.close();
  await gateway.close();
  await store.close();
  tmp.cleanup();
});

async function api(token: string, path: string, body?: object) {
  const res = await app.request(`http://127.0.0.1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json') === true;
  return { status: res.status, text, body: json ? JSON.parse(text) : undefined };
}

/** No secret, nor its sha256, nor any 8 characters of either, anywhere in `text`. */
function expectNoSecret(text: string) {
  for (const secret of secrets) {
    const body = secret.slice('carte_'.length);
    for (let i = 0; i + 8 <= body.length; i++) expect(text).not.toContain(body.slice(i, i + 8));
    expect(text).not.toContain(sha256(secret));
  }
}

describe('token acts over REST in the audit log', () => {
  it('create, revoke and a refused create each leave an admin row, without the secret', async () => {
    const made = await api(admin.token, '/api/v1/tokens', { name: 'ci', scopes: ['call'], expiresInDays: 7 });
    expect(made.status).toBe(201);
    secrets.push(made.body.token);
    expect((await api(admin.token, `/api/v1/tokens/${made.body.id}/revoke`, {})).status).toBe(200);
    expect((await api(admin.token, '/api/v1/tokens', { scopes: ['admin'] })).status).toBe(400);
    await gateway.audit.settle(); // the rows are written after the answers, not awaited by them

    const listed = await api(admin.token, '/api/v1/audit');
    expect(listed.status).toBe(200);
    const rows = (listed.body.rows as Record<string, unknown>[]).filter((r) => r.kind === 'admin');
    const by = `by token ${admin.id} "admin-bot"`;
    const token = `${made.body.id} "ci" in project "web": scopes call; expires ${made.body.expiresAt.replace(/\.\d{3}Z$/, 'Z')}`;
    expect(rows.map((r) => [r.outcome, r.detail])).toEqual([
      [
        'bad_input',
        expect.stringMatching(/^token create in project "web": scopes "admin"; expires never; by token /),
      ],
      ['ok', `token revoke ${token}; ${by}`],
      ['ok', `token create ${token}; ${by}`],
    ]);
    for (const row of rows) expect(row).toMatchObject({ project: 'web', tokenId: admin.id, key: null });
    expectNoSecret(listed.text);

    const exported = await api(admin.token, '/api/v1/audit/export');
    const lines = exported.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string });
    expect(lines.filter((r) => r.kind === 'admin')).toEqual([...rows].reverse());
    expectNoSecret(exported.text);

    // Another project's admin does not see them, as it does not see that project's tokens.
    const theirs = await api(opsAdmin, '/api/v1/audit');
    expect(theirs.body.rows.filter((r: { kind: string }) => r.kind === 'admin')).toEqual([]);
  });
});
