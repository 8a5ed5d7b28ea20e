import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, FIXTURES, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) as a real process.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function carte(
  args: string[],
  env: Record<string, string> = {},
  dataDir = ['--data-dir', join(tmp.dir, 'data')],
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...dataDir, ...args],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('carte config check', () => {
  it('prints every problem as path: message and exits 78', async () => {
    const bad = join(tmp.dir, 'bad.yaml');
    writeFileSync(bad, 'servers:\n  a:\n    comand: node\n  B:\n    url: ftp://x\n');
    const r = await carte(['config', 'check', '--config', bad]);
    expect(r.code).toBe(78);
    expect(r.stdout).toContain('servers.a.comand: unknown key "comand"; did you mean "command"?');
    expect(r.stdout).toContain('servers.B: invalid server id "B"');
    expect(r.stderr).toMatch(/problems/);
  });

  it('accepts a Claude Desktop file as it is', async () => {
    const claude = join(tmp.dir, 'claude.json');
    writeFileSync(
      claude,
      JSON.stringify({ mcpServers: { 'My Server': { command: 'node', args: ['x.js'] } } }),
    );
    const r = await carte(['config', 'check', '--config', claude]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'warning: mcpServers["My Server"]: server id "My Server" is not valid; using "my-server"',
    );
    expect(r.stdout).toContain('ok (claude format, 1 server)');
  });

  it('any command on a broken config exits 78 naming the problem', async () => {
    const bad = join(tmp.dir, 'bad2.yaml');
    writeFileSync(bad, 'servers: [1, 2]\n');
    const r = await carte(['servers', '--config', bad]);
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(/^carte: config .*bad2\.yaml has 1 problem:\n/);
  });
});

describe('a data dir that cannot be made', () => {
  it.each([
    ['the demo config', []],
    ['a config file', ['--config', 'servers.yaml']],
  ])('is named, with the fix, not reported as a bug: %s', async (_, config) => {
    const file = join(tmp.dir, 'a-file');
    writeFileSync(file, '');
    writeFileSync(join(tmp.dir, 'servers.yaml'), 'servers:\n  a: { command: node }\n');
    const r = await carte(['servers', ...config], { CARTE_DATA_DIR: file }, []);
    expect(r.code).toBe(74);
    expect(r.stderr).toMatch(
      new RegExp(
        `^carte: cannot create the data dir "${file}" \\(E[A-Z]+: .*\\); pass --data-dir or set CARTE_DATA_DIR to a directory this user can write\n$`,
      ),
    );
  });
});

describe('carte store copy', () => {
  const notPostgres = (given: string) =>
    `carte: --to "${given}" is not a postgres:// or postgresql:// URL: carte store copy copies into an empty PostgreSQL database\n`;
  it.each([
    [
      [],
      'carte: carte store copy needs --to postgres://user@host:5432/db, the empty database to copy into\n',
    ],
    [['--to', 'mysql://root:hunter2@db/x'], notPostgres('mysql://root@db/x')],
    [['--to', 'db.example'], notPostgres('db.example')],
  ])('names what --to was given, never a password: %j', async (to, message) => {
    const r = await carte(['store', 'copy', ...to]);
    expect(r.code).toBe(64);
    expect(r.stderr).toBe(message);
  });
});

describe('carte add / remove and the catalog commands', () => {
  const config = join(tmp.dir, 'carte.yaml');
  writeFileSync(config, '# my servers\nservers: {}\n');

  it('adds a stdio server keeping the comment, and discovers it at once', async () => {
    const r = await carte([
      'add',
      'paged',
      '--config',
      config,
      '--',
      process.execPath,
      join(FIXTURES, 'paginated.mjs'),
    ]);
    expect(r.stderr).toContain('[1/1] paged: 7 tools');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('paged: 7 tools');
    expect(readFileSync(config, 'utf8')).toMatch(/^# my servers\n/);
  });

  it('saves a failing server, marks it failed and shows its stderr', async () => {
    const r = await carte([
      'add',
      'dies',
      '--config',
      config,
      '--',
      process.execPath,
      join(FIXTURES, 'exit-at-start.mjs'),
    ]);
    expect(r.code).toBe(69);
    expect(r.stderr).toContain(
      'carte: server "dies" is saved but its discovery failed: server "dies" exited before it finished starting; its stderr ends with: fixture: cannot start, missing FOO_TOKEN',
    );
    const servers = JSON.parse((await carte(['servers', '--json', '--config', config])).stdout) as Array<{
      id: string;
      status: string;
    }>;
    expect(servers.map((s) => [s.id, s.status])).toEqual([
      ['paged', 'success'],
      ['dies', 'failed'],
    ]);
  });

  it('refuses to add an id twice', async () => {
    const r = await carte(['add', 'paged', '--config', config, '--', 'node', 'x.js']);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain('server "paged" already exists');
  });

  it('searches, describes and calls with --json', async () => {
    const found = JSON.parse(
      (await carte(['search', 'page', 'tool', '3', '--json', '--config', config])).stdout,
    ) as { results: Array<{ key: string }>; meta: unknown };
    expect(found.results[0]?.key).toBe('paged/page_tool_3');
    expect(found.meta).toEqual({ strategy: 'lexical', fallback: false, steps: [] });
    const d = JSON.parse(
      (await carte(['describe', 'paged/page_tool_3', '--json', '--config', config])).stdout,
    ) as { key: string };
    expect(d.key).toBe('paged/page_tool_3');
    const r = await carte([
      'call',
      'paged/page_tool_3',
      '--args',
      '{"value":"x"}',
      '--json',
      '--config',
      config,
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ content: [{ type: 'text' }] });
  });

  it('search with filters only lists what they select, by name, within --limit', async () => {
    // page_tool_3 was called above: a listing keeps name order all the same (no usage prior).
    const r = await carte(['search', 'server:paged', '--limit', '3', '--config', config]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      ['paged/page_tool_1', '1.00'],
      ['paged/page_tool_2', '1.00'],
      ['paged/page_tool_3', '1.00'],
    ]);
    const none = await carte(['search', 'server:paged', 'tag:none', '--config', config]);
    expect(none.stdout).toBe('no matching tools\n');
  });

  it('search names the servers never discovered, whose tools it cannot find', async () => {
    const two = join(tmp.dir, 'two.yaml');
    const paged = `{ command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}] }`;
    writeFileSync(two, `servers:\n  paged: ${paged}\n  later: ${paged}\n`);
    const own = ['--data-dir', join(tmp.dir, 'data-two')];
    expect((await carte(['sync', '--server', 'paged', '--config', two], {}, own)).code).toBe(0);
    const r = await carte(['search', 'page', 'tool', '--config', two], {}, own);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('paged/page_tool_');
    expect(r.stderr).toBe('never discovered, so not searched: later; run `carte sync` to add their tools\n');
  });

  it('names bad input precisely', async () => {
    const badJson = await carte(['call', 'paged/page_tool_3', '--args', '{oops', '--config', config]);
    expect(badJson.code).toBe(64);
    expect(badJson.stderr).toMatch(/^carte: --args is not valid JSON: /);
    const badArgs = await carte(['call', 'paged/page_tool_3', '--args', '{"value":3}', '--config', config]);
    expect(badArgs.stderr.trim()).toBe(
      'carte: arguments for "paged/page_tool_3" do not match its input schema: /value must be string',
    );
    const unknown = await carte(['describe', 'paged/page_tool_33', '--config', config]);
    expect(unknown.code).toBe(65);
    expect(unknown.stderr.trim()).toMatch(
      /^carte: unknown tool "paged\/page_tool_33"; did you mean "paged\/page_tool_3"/,
    );
    const limit = await carte(['search', 'x', '--limit', '500', '--config', config]);
    expect(limit.stderr.trim()).toBe('carte: --limit must be an integer from 1 to 50, not "500"');
    const cmd = await carte(['frobnicate']);
    expect(cmd.code).toBe(64);
    expect(cmd.stderr.trim()).toBe('carte: unknown command "frobnicate"; run carte --help');
  });

  it('names a store URL that is not PostgreSQL, without its password', async () => {
    const to = await carte(['store', 'copy', '--to', 'mysql://u:hunter2@h/db']);
    expect(to.code).toBe(64);
    expect(to.stderr.trim()).toBe(
      'carte: --to "mysql://u@h/db" is not a postgres:// or postgresql:// URL: carte store copy copies into an empty PostgreSQL database',
    );
    const env = await carte(['servers', '--config', config], {
      CARTE_DATABASE_URL: 'mysql://u:hunter2@h/db',
    });
    expect(env.code).toBe(78);
    expect(env.stderr.trim()).toBe(
      'carte: CARTE_DATABASE_URL "mysql://u@h/db" is not a postgres:// or postgresql:// URL; unset it to use SQLite in the data dir',
    );
  });

  it('doctor checks every server and says how to fix a broken one', async () => {
    const r = await carte(['doctor', '--config', config]);
    expect(r.code).toBe(69);
    expect(r.stdout).toMatch(/^ok +config +\S+carte\.yaml \(from --config, 0 warnings\)$/m);
    expect(r.stdout).toMatch(/^ok +server paged +7 tools in \d+ ms$/m);
    expect(r.stdout).toMatch(/^FAIL +server dies +server "dies" exited before it finished starting/m);
    expect(r.stdout).toContain('server dies: run the command by hand to see why it stops');
    expect(r.stderr.trim()).toBe('carte: doctor found 1 problem');
  });

  it('doctor names a PostgreSQL store it cannot open without its password, and how to fix that', async () => {
    const url = 'postgres://carte:hunter2@127.0.0.1:1/carte';
    const r = await carte(['doctor', '--config', config], { CARTE_DATABASE_URL: url });
    expect(r.code).toBe(74);
    expect(r.stdout).toMatch(
      /^FAIL +store +cannot open the store at "postgres:\/\/carte@127\.0\.0\.1:1\/carte": /m,
    );
    expect(r.stdout).toContain(
      'store: check CARTE_DATABASE_URL (or store.url): PostgreSQL answers there, the database exists and the role may use it',
    );
    expect(r.stdout + r.stderr).not.toContain('hunter2');
  });

  it('a gateway on PostgreSQL without CARTE_SECRET_KEY does not start, and says how to fix it', async () => {
    const url = 'postgres://carte:hunter2@127.0.0.1:1/carte';
    for (const args of [
      ['serve', '--http', '--port', '0'],
      ['serve', '--standalone'],
    ]) {
      const r = await carte([...args, '--config', config], { CARTE_DATABASE_URL: url, CARTE_SECRET_KEY: '' });
      expect(r.code).toBe(78);
      expect(r.stderr.trim()).toBe(
        'carte: a gateway on the PostgreSQL store "postgres://carte@127.0.0.1:1/carte" needs CARTE_SECRET_KEY, the key every replica shares to seal upstream sign-ins; set it to the same value on every replica (make one with "openssl rand -base64 32")',
      );
    }
  });

  it('removes a server and its cached tools', async () => {
    const r = await carte(['remove', 'dies', '--config', config]);
    expect(r.code).toBe(0);
    const servers = JSON.parse((await carte(['servers', '--json', '--config', config])).stdout) as Array<{
      id: string;
    }>;
    expect(servers.map((s) => s.id)).toEqual(['paged']);
    const again = await carte(['remove', 'dies', '--config', config]);
    expect(again.code).toBe(65);
  });
});

describe('carte rank', () => {
  it('ranks queries against catalog files with the gateway search, as JSON lines', async () => {
    const catalog = join(tmp.dir, 'catalog.json');
    const queries = join(tmp.dir, 'queries.json');
    writeFileSync(
      catalog,
      JSON.stringify([
        {
          server: '@acme/files',
          name: 'read_file',
          description: 'Read a file from disk',
          inputSchema: { properties: { path: {} } },
        },
        { server: 'weather', name: 'get_forecast', description: 'Weather forecast for a city' },
        { server: 'git', name: 'read_file', description: 'Read a file at a git revision' },
      ]),
    );
    writeFileSync(
      queries,
      JSON.stringify([
        { id: 'q1', query: 'what is the weather in Paris tomorrow' },
        { id: 'q2', query: 'ignored when --steps', steps: ['get_forecast'] },
      ]),
    );
    const r = await carte(['rank', '--catalog', catalog, '--queries', queries, '--k', '2', '--steps']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; ranking: string[] });
    expect(lines.map((l) => l.id)).toEqual(['q1', 'q2']);
    expect(lines[0]!.ranking[0]).toBe('weather/get_forecast');
    expect(lines[1]!.ranking).toEqual(['weather/get_forecast']);
    expect(r.stderr).toContain('indexed 3 tools from 1 file in');
    const bad = await carte(['rank', '--queries', queries]);
    expect(bad.code).toBe(64);
    expect(bad.stderr.trim()).toBe('carte: rank needs at least one --catalog FILE');
  });
});
