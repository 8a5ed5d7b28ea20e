import { describe, expect, it } from 'vitest';
import {
  CLIENTS,
  clientSpec,
  digest,
  planInstall,
  planUninstall,
  type ClientSpec,
  type InstallInput,
  type InstallRecord,
} from '../index.js';

const CURSOR = '/h/.cursor/mcp.json';
const USER = '/h/.config/carte/carte.yaml';
const command = { command: '/usr/bin/node', args: ['/app/bin/carte.js', 'serve'] };
const cursorText =
  '{\n    "theme": "dark",\n    "mcpServers": {\n        "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},\n        "GitHub Tools": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}},\n        "remote": {"serverUrl": "https://mcp.example.com/sse", "disabled": true, "alwaysAllow": ["x"]}\n    }\n}\n';

function input(over: Partial<InstallInput> = {}): InstallInput {
  return {
    spec: CLIENTS.cursor,
    clientPath: CURSOR,
    clientText: cursorText,
    carte: { path: USER, text: '' },
    command,
    load: { env: {}, dataDir: '/h/data' },
    ...over,
  };
}

function installed(over: Partial<InstallInput> = {}) {
  const plan = planInstall(input(over));
  if (plan.kind !== 'install') throw new Error('expected an install');
  return plan;
}

describe('planInstall', () => {
  it('moves the servers in Carte format, each under a comment naming the file, and leaves one carte entry', () => {
    const plan = installed({
      carte: { path: USER, text: '# mine\nservers: {}\nsearch: { strategy: lexical }\n' },
    });
    expect(plan.carteText).toBe(
      [
        '# mine',
        'servers:',
        `  # from ${CURSOR}`,
        '  memory:',
        '    command: npx',
        '    args:',
        '      - -y',
        '      - "@modelcontextprotocol/server-memory"',
        `  # from ${CURSOR}`,
        '  github-tools:',
        '    command: gh-mcp',
        '    env:',
        '      GITHUB_TOKEN: ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        `  # from ${CURSOR}`,
        '  remote:',
        '    url: https://mcp.example.com/sse',
        '    enabled: false',
        'search: { strategy: lexical }',
        '',
      ].join('\n'),
    );
    expect(plan.clientText).toBe(
      '{\n    "theme": "dark",\n    "mcpServers": {\n        "carte": {\n            "command": "/usr/bin/node",\n            "args": [\n                "/app/bin/carte.js",\n                "serve"\n            ]\n        }\n    }\n}\n',
    );
    expect(plan.added.map((a) => [a.writtenId, a.id])).toEqual([
      ['memory', 'memory'],
      ['GitHub Tools', 'github-tools'],
      ['remote', 'remote'],
    ]);
    expect(plan.secrets).toEqual(['github-tools: env.GITHUB_TOKEN holds a GitHub token written inline']);
    expect(plan.warnings).toEqual(['mcpServers.remote.alwaysAllow: ignored unknown key "alwaysAllow"']);
  });

  it('writes VS Code entries with type, under servers, keeping inputs', () => {
    const text =
      '{\n  "inputs": [{"type": "promptString", "id": "k"}],\n  "servers": {"e": {"type": "stdio", "command": "node"}}\n}';
    const plan = installed({ spec: CLIENTS.vscode, clientText: text });
    expect(plan.after).toEqual({ carte: { type: 'stdio', ...command } });
    expect(
      plan.clientText.startsWith(
        '{\n  "inputs": [{"type": "promptString", "id": "k"}],\n  "servers": {\n    "carte"',
      ),
    ).toBe(true);
  });

  it('says so when the client already has a carte entry', () => {
    const once = installed();
    expect(
      planInstall(input({ clientText: once.clientText, carte: { path: USER, text: once.carteText } })),
    ).toEqual({
      kind: 'already',
      why: `${CURSOR} already has a "carte" entry`,
    });
  });

  it('calls a carte entry that starts Carte otherwise stale, and rewrites that entry alone on refresh', () => {
    const text =
      '{\n  // mine\n  "mcpServers": {\n    "x": {"command": "y"},\n    "carte": {"command": "/old/node", "args": ["/app/bin/carte.js", "serve"], "env": {"K": "v"}} // kept\n  },\n  "z": 1\n}\n';
    const fresh = {
      command: '/usr/bin/node',
      args: ['--max-semi-space-size=4', '/app/bin/carte.js', 'serve'],
    };
    expect(planInstall(input({ clientText: text, command: fresh }))).toEqual({
      kind: 'stale',
      current: { command: '/old/node', args: ['/app/bin/carte.js', 'serve'] },
      wanted: fresh,
    });
    const plan = planInstall(input({ clientText: text, command: fresh, refresh: true }));
    if (plan.kind !== 'refresh') throw new Error(`expected a refresh, got ${plan.kind}`);
    expect(plan.clientText).toBe(
      '{\n  // mine\n  "mcpServers": {\n    "x": {"command": "y"},\n    "carte": {\n      "command": "/usr/bin/node",\n      "args": [\n        "--max-semi-space-size=4",\n        "/app/bin/carte.js",\n        "serve"\n      ],\n      "env": {\n        "K": "v"\n      }\n    } // kept\n  },\n  "z": 1\n}\n',
    );
    // Refreshed, it is what install writes: nothing more to do.
    expect(planInstall(input({ clientText: plan.clientText, command: fresh, refresh: true })).kind).toBe(
      'already',
    );
  });

  it('leaves a server Carte already has with the same definition, and refuses another naming both', () => {
    const same =
      'servers:\n  memory:\n    command: npx\n    args: ["-y", "@modelcontextprotocol/server-memory"]\n';
    expect(installed({ carte: { path: USER, text: same } }).same).toEqual(['memory']);
    const other = 'servers:\n  memory:\n    command: uvx\n';
    expect(() => planInstall(input({ carte: { path: USER, text: other } }))).toThrow(
      `server "memory" in "${CURSOR}" differs from server "memory" already in "${USER}"; rename or remove one of them, then install again`,
    );
  });

  it.each<[string, string, string | RegExp]>([
    [
      'an unset variable',
      '{"mcpServers": {"a": {"command": "x", "env": {"T": "${env:NOPE}"}}}}',
      /it would not load \(servers\.a\.env\.T: environment variable "NOPE" is not set\)/,
    ],
    [
      'an envFile',
      '{"mcpServers": {"a": {"command": "x", "envFile": ".env"}}}',
      'cannot move server "a" from "/h/.cursor/mcp.json": "envFile" is not moved; put its variables under "env" first',
    ],
    [
      'a section that is not an object',
      '{"mcpServers": []}',
      'cannot read "/h/.cursor/mcp.json": its "mcpServers" is not an object',
    ],
  ])('refuses %s', (_, clientText, message) => {
    expect(() => planInstall(input({ clientText }))).toThrow(message);
  });
});

describe('planUninstall', () => {
  const spec: ClientSpec = CLIENTS.cursor;
  function undo(clientText: string, carteText: string, usedElsewhere = new Map<string, string>()) {
    const plan = installed();
    const record: InstallRecord = {
      version: 1,
      client: 'cursor',
      file: CURSOR,
      backup: `${CURSOR}.carte-backup`,
      installedDigest: digest(plan.clientText),
      carteConfig: USER,
      added: plan.added.map((a) => ({ id: a.id, writtenId: a.writtenId, entryDigest: digest(a.entry) })),
      same: plan.same,
    };
    const carte = { path: USER, text: carteText.replace('CARTE', plan.carteText) };
    return planUninstall({
      spec,
      record,
      clientText: clientText.replace('CLIENT', plan.clientText),
      backupText: cursorText,
      carte,
      usedElsewhere,
    });
  }

  it('restores an unchanged client file byte for byte and empties Carte of what it added', () => {
    const plan = undo('CLIENT', 'CARTE');
    expect(plan).toMatchObject({
      exact: true,
      clientText: cursorText,
      removed: ['memory', 'github-tools', 'remote'],
      kept: [],
    });
    expect(plan.carteText).toBe('servers: {}\n');
  });

  it('restores only the servers of a changed file, keeping what the user added since', () => {
    const changed = installed()
      .clientText.replace('"theme": "dark"', '"theme": "light"')
      .replace('"carte": {', '"new": {"command": "n"},\n        "carte": {');
    const plan = undo(changed, 'CARTE');
    expect(plan.exact).toBe(false);
    const doc = JSON.parse(plan.clientText) as { theme: string; mcpServers: Record<string, unknown> };
    expect(doc.theme).toBe('light');
    expect(Object.keys(doc.mcpServers)).toEqual(['memory', 'GitHub Tools', 'remote', 'new']);
  });

  it('keeps servers changed in Carte since, or used by another install, and says why', () => {
    const plan = undo('CLIENT', 'CARTE', new Map([['memory', 'Claude Desktop']]));
    expect(plan.kept).toEqual([{ id: 'memory', why: 'Claude Desktop uses it too' }]);
    const changed = installed().carteText.replace('command: gh-mcp', 'command: gh-mcp2');
    expect(undo('CLIENT', changed).kept).toEqual([
      { id: 'github-tools', why: `it changed in ${USER} since install` },
    ]);
  });
});

describe('clientSpec', () => {
  it('refuses an unknown client, listing the known ones', () => {
    expect(() => clientSpec('zed')).toThrow(
      'unknown client "zed"; --client takes one of claude-desktop, claude-code, cursor, vscode, windsurf, gemini-cli',
    );
  });

  it.each<[string, NodeJS.Platform, Record<string, string>, string]>([
    [
      'claude-desktop',
      'darwin',
      {},
      '/Users/u/Library/Application Support/Claude/claude_desktop_config.json',
    ],
    [
      'claude-desktop',
      'win32',
      { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
      'C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    ],
    ['claude-desktop', 'linux', {}, '/Users/u/.config/Claude/claude_desktop_config.json'],
    ['claude-desktop', 'linux', { XDG_CONFIG_HOME: '/x' }, '/x/Claude/claude_desktop_config.json'],
    ['claude-code', 'linux', {}, '/Users/u/.claude.json'],
    ['claude-code', 'win32', {}, 'C:\\Users\\u\\.claude.json'],
    ['cursor', 'darwin', {}, '/Users/u/.cursor/mcp.json'],
    ['cursor', 'win32', {}, 'C:\\Users\\u\\.cursor\\mcp.json'],
    ['vscode', 'linux', {}, '/Users/u/.config/Code/User/mcp.json'],
    ['vscode', 'darwin', {}, '/Users/u/Library/Application Support/Code/User/mcp.json'],
    ['vscode', 'win32', {}, 'C:\\Users\\u\\AppData\\Roaming\\Code\\User\\mcp.json'],
    ['windsurf', 'linux', {}, '/Users/u/.codeium/windsurf/mcp_config.json'],
    ['windsurf', 'win32', {}, 'C:\\Users\\u\\.codeium\\windsurf\\mcp_config.json'],
    ['gemini-cli', 'darwin', {}, '/Users/u/.gemini/settings.json'],
    ['gemini-cli', 'win32', {}, 'C:\\Users\\u\\.gemini\\settings.json'],
  ])('finds %s on %s (%j)', (name, platform, env, path) => {
    const home = platform === 'win32' ? 'C:\\Users\\u' : '/Users/u';
    expect(clientSpec(name).file({ env, platform, home })).toBe(path);
  });
});
