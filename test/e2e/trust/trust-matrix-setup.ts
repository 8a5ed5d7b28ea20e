import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer } from '../../../src/mcp/index.js';
import {
  compileRules,
  localCaller,
  projectsFromConfig,
  type CallerContext,
  type Gateway,
  type GatewayServer,
} from '../../../src/gateway/index.js';
import { fixture, harness, referenceEntry, stdioServer, type Harness } from '../helpers.js';

// The world of the trust matrix (test/e2e/trust/trust-matrix.test.ts): two projects over real servers,
// rules that hide tools, a server no project holds, and distinctive values planted in the config
// (env, a header, command lines, paths) that no agent-facing answer may carry.

/** Server ids chosen to occur in no upstream's own text, so a grep for them means a leak. */
export const SERVER = {
  kitchen: 'kitchen7', // server-everything, project alpha
  notebook: 'notebook7', // server-memory, project beta
  drawer: 'drawer7', // server-filesystem, project beta
  remote: 'remote7', // test/fixtures/http-server.mjs over HTTP, project beta
  orphan: 'orphan7', // test/fixtures/paginated.mjs, in no project
} as const;

/** Values only the config holds: none may reach an agent. */
export const PLANTED = {
  env: 'envsecret-kitchen-Q9zL2mX7',
  memoryEnv: 'envsecret-notebook-R4tW8pK1',
  header: 'headersecret-remote-B7vN3cJ5',
  orphanEnv: 'envsecret-orphan-H2dF6sA0',
} as const;

const GLOBAL_RULES = [{ match: '*tiny*', enabled: false, tags: [] }];
const ALPHA_RULES = [
  { match: '*sum*', enabled: false, tags: [] },
  { match: `${SERVER.kitchen}/get-env`, enabled: false, tags: [] },
];
const BETA_RULES = [
  { match: `${SERVER.drawer}/write_*`, enabled: false, tags: [] },
  { match: `${SERVER.notebook}/delete_*`, enabled: false, tags: [] },
  { match: `${SERVER.remote}/crash`, enabled: false, tags: [] },
];
export const PROJECT_SERVERS = {
  alpha: [SERVER.kitchen],
  beta: [SERVER.notebook, SERVER.drawer, SERVER.remote],
} as const;
export type ProjectId = keyof typeof PROJECT_SERVERS;

/** Every configured server; the same objects serve the main gateway and the references. */
export function matrixServers(dir: string, url: string): GatewayServer[] {
  const sandbox = join(dir, 'sandbox');
  mkdirSync(sandbox, { recursive: true });
  const headers = { 'X-Api-Key': PLANTED.header };
  const target = { kind: 'remote' as const, url, headers, transport: 'streamable-http' as const };
  return [
    stdioServer(SERVER.kitchen, [referenceEntry('server-everything'), 'stdio'], {
      env: { MATRIX_API_KEY: PLANTED.env },
    }),
    stdioServer(SERVER.notebook, [referenceEntry('server-memory')], {
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl'), NOTE_TOKEN: PLANTED.memoryEnv },
    }),
    stdioServer(SERVER.drawer, [referenceEntry('server-filesystem'), sandbox]),
    {
      ...stdioServer(SERVER.remote, []),
      target,
      configHash: `remote-${url}`,
      display: url,
    },
    fixture(SERVER.orphan, 'paginated.mjs', { env: { ORPHAN_KEY: PLANTED.orphanEnv } }),
  ];
}

/** The gateway under test: projects alpha and beta, global and project rules. */
export function mainGateway(servers: GatewayServer[], dir: string): Promise<Harness> {
  const projects = projectsFromConfig({
    projects: {
      alpha: { servers: [...PROJECT_SERVERS.alpha], rules: ALPHA_RULES, deny: [], confirm: [] },
      beta: { servers: [...PROJECT_SERVERS.beta], rules: BETA_RULES, deny: [], confirm: [] },
    },
  });
  return harness(servers, dir, { projects, rules: compileRules(GLOBAL_RULES) });
}

/** A gateway that only ever had one project's servers, with its rules as its own (the oracle). */
export function referenceGateway(
  servers: GatewayServer[],
  project: ProjectId,
  dir: string,
): Promise<Harness> {
  const own = servers.filter((s) => (PROJECT_SERVERS[project] as readonly string[]).includes(s.id));
  const rules = [...GLOBAL_RULES, ...(project === 'alpha' ? ALPHA_RULES : BETA_RULES)];
  return harness(own, dir, { rules: compileRules(rules) });
}

/** Discovers every server of the main gateway (each project's local user syncs its own). */
export async function syncAll(g: Gateway): Promise<void> {
  await g.sync(localCaller('alpha'));
}

/** Meta mode with run_code listed, so the matrix reaches tools from inside scripts too. */
const MATRIX_EXPOSURE = { mode: 'meta' as const, maxTools: 50, code: { enabled: true, timeoutMs: 10_000 } };

/** An MCP client connected in memory to the MCP face serving `caller` (run_code listed). */
export async function connectFace(g: Gateway, caller: CallerContext): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(g, caller, { exposure: MATRIX_EXPOSURE }).connect(serverSide);
  const client = new Client({ name: 'matrix', version: '0' });
  await client.connect(clientSide);
  return client;
}
