// Issue 42 §5: `carte servers --json` and GET /api/v1/servers say, for each server, whether it is
// sandboxed, its network grant and its limits: an object for a sandboxed stdio server (its own or
// sandbox.default's), null for an unsandboxed one, absent for a remote one. Nothing is started.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile } from '../../../src/config/index.js';
import {
  createToken,
  Gateway,
  openStore,
  projectsFromConfig,
  serversFromConfig,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, type HttpApp } from '../../../src/http/index.js';
import { FIXTURES, memoryLogger, ROOT, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir('carte-sandbox-views-');
const config = join(tmp.dir, 'carte.yaml');
const fixture = `{ command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}]`;
writeFileSync(
  config,
  [
    'sandbox:',
    '  default: { memoryMb: 128 }',
    'servers:',
    `  boxed: ${fixture}, sandbox: { network: [registry.npmjs.org, "localhost:5173"], maxProcesses: 32 } }`,
    `  defaulted: ${fixture} }`,
    `  plain: ${fixture}, sandbox: false }`,
    '  remote: { url: "http://127.0.0.1:9/mcp" }',
    '',
  ].join('\n'),
);

const EXPECTED = {
  boxed: { network: ['registry.npmjs.org', 'localhost:5173'], maxProcesses: 32 },
  defaulted: { network: [], memoryMb: 128 },
  plain: null,
};

function sandboxes(servers: { id: string; sandbox?: unknown }[]): Record<string, unknown> {
  return Object.fromEntries(servers.filter((s) => 'sandbox' in s).map((s) => [s.id, s.sandbox]));
}

describe('the sandbox in server listings', () => {
  let store: Store;
  let gateway: Gateway;
  let app: HttpApp;

  beforeAll(async () => {
    const loaded = loadConfigFile(config, { env: { HOME: tmp.dir } });
    store = await openStore(join(tmp.dir, 'carte.db'));
    gateway = await Gateway.open({
      servers: serversFromConfig(loaded.config!),
      store,
      logger: memoryLogger(),
      projects: projectsFromConfig(loaded.config!),
    });
    app = createHttpApp({ gateway, store, configPath: config, env: {}, dataDir: tmp.dir });
  });
  afterAll(async () => {
    await app.close();
    await gateway.close();
    await store.close();
    tmp.cleanup();
  });

  it('carte servers --json: an object when sandboxed, null when not, absent for a remote server', async () => {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [BIN, '--data-dir', join(tmp.dir, 'cli-data'), '--config', config, 'servers', '--json'],
        { env: { ...process.env, CARTE_CONFIG: '', HOME: tmp.dir }, timeout: 60_000 },
        (err, out, stderr) => (err ? reject(new Error(stderr)) : resolve(out)),
      ),
    );
    const servers = JSON.parse(stdout) as { id: string; sandbox?: unknown }[];
    expect(servers.map((s) => s.id)).toEqual(['boxed', 'defaulted', 'plain', 'remote']);
    expect(sandboxes(servers)).toEqual(EXPECTED);
  });

  it('GET /api/v1/servers: the same for an admin, nothing of it for a search token', async () => {
    const mint = async (scope: string) =>
      (await createToken(store, { project: 'default', scopes: [scope] }, Date.now())).token;
    const get = async (token: string) => {
      const res = await app.request('http://127.0.0.1/api/v1/servers', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { servers: { id: string; sandbox?: unknown }[] }).servers;
    };
    const admin = await get(await mint('admin'));
    expect(admin.map((s) => s.id)).toEqual(['boxed', 'defaulted', 'plain', 'remote']);
    expect(sandboxes(admin)).toEqual(EXPECTED);
    expect(sandboxes(await get(await mint('search')))).toEqual({});
  });
});
