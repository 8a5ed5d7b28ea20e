import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gateway, openStore } from '../../gateway/index.js';
import { createHttpApp } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'carte-openapi-'));
const store = await openStore(join(dir, 'carte.db'));
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const gateway = await Gateway.open({ servers: [], store, logger: quiet });
const app = createHttpApp({ gateway, store });
afterAll(async () => {
  await app.close();
  await gateway.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `GET /api/v1/tools/{server}/{tool}`: Hono's `:param` written as OpenAPI's `{param}`. */
const route = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`;

/** Routes the app serves under /api/v1 (middleware is registered as ALL and is not a route). */
function servedRoutes(): Set<string> {
  return new Set(
    app.routes
      .filter((r) => r.path.startsWith('/api/v1/') && r.method !== 'ALL')
      .map((r) => route(r.method, r.path)),
  );
}

async function documentRoutes(): Promise<Set<string>> {
  const res = await app.request('http://127.0.0.1/api/v1/openapi.json');
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  expect(doc.openapi).toBe('3.1.0');
  return new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => route(m, `/api/v1${path}`)),
    ),
  );
}

/** The routes docs/http.md's REST API table lists, query strings cut. */
function documentedRoutes(): Set<string> {
  const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'http.md'), 'utf8');
  const section = text.split('\n## REST API')[1]!.split('\n## ')[0]!;
  return new Set(
    [...section.matchAll(/^\| `(GET|POST|PUT|DELETE|PATCH) (\/api\/v1\/[^`?]*)/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    ),
  );
}

describe('the OpenAPI document', () => {
  it('is public and describes every route the app serves (and nothing else)', async () => {
    const served = servedRoutes();
    expect(served.size).toBeGreaterThan(10);
    served.delete('GET /api/v1/openapi.json'); // the document does not describe itself
    expect([...(await documentRoutes())].sort()).toEqual([...served].sort());
  });

  it('matches the route table in docs/http.md', () => {
    expect([...documentedRoutes()].sort()).toEqual([...servedRoutes()].sort());
  });

  it('marks the login route public and the others bearer', async () => {
    const res = await app.request('http://127.0.0.1/api/v1/openapi.json');
    const doc = (await res.json()) as {
      security: unknown;
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/login']!.post!.security).toEqual([]);
  });
});
