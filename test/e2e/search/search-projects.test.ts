import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyDiscovery, type ListedTool } from '../../../src/catalog/index.js';
import { parseConfigText, type CarteConfig } from '../../../src/config/index.js';
import {
  LOCAL_CALLER as ME,
  projectsFromConfig,
  searchOptionsFromConfig,
  serversFromConfig,
  type CallerContext,
  type Gateway,
} from '../../../src/gateway/index.js';
import { startStub, type Stub, type StubRequest } from '../../fixtures/remote-stub.js';
import { harness, memoryLogger, tempDir, type Harness } from '../helpers.js';

// Per-project search strategy (issue 29, item 3), config text -> gateway over a real SQLite store:
// project "team" searches with a remote embedding model (a real HTTP stub on port 0), project
// "plain" lexically like the top-level section. No upstream starts: the catalog is written the
// way a sync writes it.

const tool = (name: string, description: string): ListedTool => ({
  name,
  description,
  inputSchema: { type: 'object' },
});
const CATALOG: Record<string, ListedTool[]> = {
  files: [tool('read_file', 'Read the contents of a file from disk.')],
  mail: [tool('send_email', 'Send an email message to a recipient.')],
  web: [tool('fetch', 'Fetch a URL and return its text.')],
};

/** A toy embedding model: one dimension per topic ("quux" is a mail word only it knows). */
const TOPICS = [/file/i, /url|fetch/i, /mail|quux/i];
const embedText = (text: string) => [...TOPICS.map((t) => (t.test(text) ? 1 : 0)), 0.1];
const embeddings = (req: StubRequest) => {
  const { input } = req.body as { input: string[] };
  return { body: JSON.stringify({ data: input.map((t, index) => ({ index, embedding: embedText(t) })) }) };
};

let stub: Stub;
beforeAll(async () => {
  stub = await startStub();
  stub.reply = (req) => (req.path === '/v1/embeddings' ? embeddings(req) : { status: 404, body: '{}' });
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
});

const SERVERS =
  '  files:\n    command: never-started\n  mail:\n    command: never-started\n  web:\n    command: never-started\n';
const REMOTE = () =>
  `      strategy: remote\n      remote:\n        embeddings:\n          url: ${stub.url}\n          model: toy\n          dimension: 4\n`;
const ALL = '[files, mail, web]';

function config(projects: string): CarteConfig {
  const text = `servers:\n${SERVERS}search:\n  strategy: lexical\nprojects:\n${projects}`;
  const r = parseConfigText(text, { path: '/cfg/carte.yaml', env: {} });
  expect(r.errors).toEqual([]);
  return r.config!;
}
const TWO = () =>
  config(
    `  team:\n    servers: ${ALL}\n    search:\n${REMOTE()}` +
      `  plain:\n    servers: ${ALL}\n    search:\n      strategy: lexical\n` +
      `  default:\n    servers: ${ALL}\n`,
  );
const caller = (projectId: string): CallerContext => ({ projectId, scopes: ['search'] });
const TEAM = caller('team');
const PLAIN = caller('plain');
const embedId = () => `openai:${stub.url.slice('http://'.length)}/toy`;

const open: { h: Harness; cleanup: () => void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.h.close();
    o.cleanup();
  }
});

async function openGateway(c: CarteConfig): Promise<Gateway> {
  const dir = tempDir();
  const extra = {
    logger: memoryLogger(),
    search: searchOptionsFromConfig(c.search),
    projects: projectsFromConfig(c),
  };
  const h = await harness(serversFromConfig(c), dir.dir, extra, async (store) => {
    for (const [id, tools] of Object.entries(CATALOG)) await applyDiscovery(store, id, { tools });
  });
  open.push({ h, cleanup: dir.cleanup });
  return h.gateway;
}

describe('each project searches with its own strategy', () => {
  it('gives a project its own search only when its section differs from the top-level one', () => {
    const projects = projectsFromConfig(TWO());
    expect(projects.get('team')?.search?.config.strategy).toBe('remote');
    expect(projects.get('plain')).not.toHaveProperty('search'); // equal to `search`: shares its state
    expect(projects.get('default')).not.toHaveProperty('search');
  });

  it("sends one project's searches through its remote model and the other's through the lexical ranking", async () => {
    const gateway = await openGateway(TWO());
    const ready = await gateway.prepareSearches(ME);
    expect(ready.top).toEqual({ strategy: 'lexical', state: 'lexical' });
    expect(ready.projects).toEqual([
      {
        project: 'team',
        own: true,
        status: { strategy: 'remote', state: 'ready', model: `${embedId()}+text-v1`, cachedVectors: 3 },
      },
      { project: 'plain', own: false, status: { strategy: 'lexical', state: 'lexical' } },
      { project: 'default', own: false, status: { strategy: 'lexical', state: 'lexical' } },
    ]);
    stub.requests.length = 0;

    const team = await gateway.searchToolsWithMeta(TEAM, 'quux');
    expect(team.results.map((r) => r.key)[0]).toBe('mail/send_email'); // by meaning: no such word
    expect(team.meta).toEqual({
      strategy: 'remote',
      fallback: false,
      steps: [{ provider: embedId(), fallback: false }],
    });
    expect(stub.requests.map((r) => (r.body as { input: string[] }).input)).toEqual([['quux']]);

    stub.requests.length = 0;
    const plain = await gateway.searchToolsWithMeta(PLAIN, 'quux');
    expect(plain).toEqual({ results: [], meta: { strategy: 'lexical', fallback: false, steps: [] } });
    const lexical = await gateway.searchToolsWithMeta(PLAIN, 'read a file');
    expect(lexical.results.map((r) => r.key)).toEqual(['files/read_file']);
    expect(stub.requests).toEqual([]); // the lexical project never asks the model
    expect(await gateway.searchStatus(TEAM)).toMatchObject({ strategy: 'remote' });
    expect(await gateway.searchStatus(PLAIN)).toMatchObject({ strategy: 'lexical' });
  });

  it('takes new strategies on reload: a project turned lexical stops asking, a new one starts', async () => {
    const gateway = await openGateway(TWO());
    await gateway.prepareSearches(ME);
    const next = config(
      `  team:\n    servers: ${ALL}\n    search:\n      strategy: lexical\n` +
        `  late:\n    servers: ${ALL}\n    search:\n${REMOTE()}` +
        `  default:\n    servers: ${ALL}\n`,
    );
    await gateway.reload(ME, serversFromConfig(next), { projects: projectsFromConfig(next) });
    stub.requests.length = 0;
    expect((await gateway.searchToolsWithMeta(TEAM, 'quux')).meta.strategy).toBe('lexical');
    expect(stub.requests).toEqual([]);
    const { projects } = await gateway.prepareSearches(ME);
    expect(projects.map((p) => [p.project, p.own, p.status.strategy])).toEqual([
      ['team', false, 'lexical'],
      ['late', true, 'remote'],
      ['default', false, 'lexical'],
    ]);
    const late = await gateway.searchToolsWithMeta(caller('late'), 'quux');
    expect(late.results[0]?.key).toBe('mail/send_email');
    // The new project's search read the vectors team's stored (same model): it embedded only the query.
    expect(stub.requests.map((r) => (r.body as { input: string[] }).input)).toEqual([['quux']]);
  });

  it('says nothing per project when no project has a strategy of its own', async () => {
    const gateway = await openGateway(config(`  default:\n    servers: ${ALL}\n`));
    expect(await gateway.prepareSearches(ME)).toEqual({
      top: { strategy: 'lexical', state: 'lexical' },
      projects: [],
    });
  });
});
