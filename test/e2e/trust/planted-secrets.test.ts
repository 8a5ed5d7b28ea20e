import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FIXTURES, ROOT, startHttpFixture, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) as real processes, with known secrets
// planted everywhere a user puts them (issue 15: "a test plants known secrets and greps every
// output"): an env value behind ${env:NAME}, an Authorization header behind ${env:NAME}, an
// inline header and a URL key in the config, a token's plaintext, secret call arguments and
// search queries (audit.arguments: redacted), and a registration file with inline secrets. Every
// stdout, stderr (at --log-level debug) and every byte of the data dir is grepped: 0 hits, but
// the token once, alone on `token create`'s last stdout line.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir('carte-planted-');
const DATA = join(tmp.dir, 'data');
const CONFIG = join(tmp.dir, 'carte.yaml');
const children: ChildProcess[] = [];
const rand = (n: number) => randomBytes(n).toString('base64url').replace(/[-_]/g, 'Q');

/** Each secret with a random body, so a hit can only be a leak. */
const SECRET = {
  env: `plantedEnv${rand(18)}`,
  bearer: `plantedBearer${rand(18)}`,
  header: `plantedHeader${rand(18)}`,
  url: `plantedUrl${rand(18)}`,
  password: `plantedPassword${rand(18)}`,
  note: `plantedNote${rand(18)}`,
  query: `ghp_${rand(27).slice(0, 36)}`,
  regEnv: `ghp_${rand(27).slice(0, 36)}`,
  regHeader: `plantedRegHeader${rand(18)}`,
  regArg: `plantedRegArg${rand(18)}`,
};
const ENV = { ...process.env, CARTE_CONFIG: '', PLANTED_ENV: SECRET.env, PLANTED_BEARER: SECRET.bearer };

interface Run {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}
/** Everything every process printed, but `token create`'s stdout (checked on its own). */
const outputs: Run[] = [];

function carte(...args: string[]): Promise<Run> {
  const argv = [BIN, '--data-dir', DATA, '--config', CONFIG, '--log-level', 'debug', ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: tmp.dir, env: ENV, timeout: 90_000 }, (err, stdout, stderr) => {
      const run = { args, code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr };
      if (args.slice(0, 2).join(' ') !== 'token create') outputs.push(run);
      resolve(run);
    });
  });
}

beforeAll(async () => {
  const url = await startHttpFixture(children);
  writeFileSync(
    CONFIG,
    [
      'servers:',
      '  faults:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(join(FIXTURES, 'faults.mjs'))}]`,
      '    env: { PLANTED_KEY: "${env:PLANTED_ENV}" }',
      '  web:',
      `    url: ${JSON.stringify(`${url}?api_key=${SECRET.url}`)}`,
      '    transport: streamable-http',
      '    headers:',
      `      X-Api-Key: ${SECRET.header}`,
      '      Authorization: "Bearer ${env:PLANTED_BEARER}"',
      'audit:',
      '  arguments: redacted',
      'registration:',
      `  allow: { commands: [${JSON.stringify(process.execPath)}] }`,
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(tmp.dir, 'proposal.yaml'),
    [
      'mcpServers:',
      '  leaky:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [server.js, "--api-key=${SECRET.regArg}"]`,
      `    env: { GITHUB_TOKEN: ${SECRET.regEnv} }`,
      '  leaky-remote:',
      '    url: https://mcp.example.com/mcp',
      `    headers: { Authorization: "Bearer ${SECRET.regHeader}" }`,
      '',
    ].join('\n'),
  );
  // Waits as pending (`node` from PATH is not the allowed binary): its stored target and
  // `carte approvals` must keep the ${env:NAME} reference, never the value.
  writeFileSync(
    join(tmp.dir, 'pending.yaml'),
    [
      'servers:',
      '  pend:',
      '    command: node',
      '    args: [server.js]',
      '    env: { API_KEY: "${env:PLANTED_ENV}" }',
      '',
    ].join('\n'),
  );
}, 60_000);
afterAll(() => {
  children.forEach((c) => c.kill('SIGKILL'));
  tmp.cleanup();
});

const ARGS = { password: SECRET.password, note: `Bearer ${SECRET.note}`, text: SECRET.query };

/** Serves over stdio as an agent's client would, and sends the secrets through the meta-tools. */
async function serveSession(): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--data-dir', DATA, '--config', CONFIG, '--log-level', 'debug'],
    env: ENV,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'planted', version: '0' });
  await client.connect(transport);
  const answers: unknown[] = [];
  const call = async (name: string, args: Record<string, unknown>) =>
    answers.push(await client.callTool({ name, arguments: args, _meta: { authorization: 'x' } }));
  try {
    answers.push(await client.listTools());
    await call('search_tools', { query: `find ${SECRET.query}` });
    await call('browse_tools', {});
    await call('browse_tools', { server: 'web' });
    await call('describe_tool', { key: 'web/stats' });
    await call('call_tool', { key: 'faults/stats', arguments: ARGS });
    await call('call_tool', { key: 'web/stats', arguments: ARGS });
    await call('call_tool', { key: 'faults/nope', arguments: ARGS });
    await call('call_tool', { key: 'faults/slow', arguments: { ...ARGS, ms: 'x' } });
    // A secret that is itself the bad value: the schema error must not quote it.
    await call('call_tool', { key: 'faults/big_result', arguments: { bytes: SECRET.query } });
  } finally {
    await client.close();
  }
  outputs.push({ args: ['serve'], code: 0, stdout: JSON.stringify(answers), stderr });
}

/** Where a secret shows: whole, or any 10-character piece of its random tail (24 characters). */
function hitAt(text: string, secret: string): number {
  const body = secret.slice(-24);
  for (let i = 0; i + 10 <= body.length; i++) {
    const at = text.indexOf(body.slice(i, i + 10));
    if (at >= 0) return at;
  }
  return -1;
}
const hits = (text: string, secret: string) => hitAt(text, secret) >= 0;

describe('planted secrets never come back out', () => {
  let token = '';

  it('runs every command over the secrets', async () => {
    expect((await carte('config', 'check')).code).toBe(0);
    expect((await carte('sync', '--json')).code).toBe(0);
    await serveSession();
    for (const args of [
      ['servers'],
      ['servers', '--json'],
      ['tools', '--json'],
      ['search', SECRET.query, '--json'],
      ['search', 'stats', SECRET.query],
      ['describe', 'web/stats', '--json'],
      ['call', 'faults/stats', '--args', JSON.stringify(ARGS), '--json'],
      ['call', 'web/stats', '--args', JSON.stringify(ARGS)],
      ['call', 'faults/nope', '--args', JSON.stringify(ARGS)],
      ['call', 'faults/big_result', '--args', JSON.stringify({ bytes: `Bearer ${SECRET.note}` })],
      ['register', join(tmp.dir, 'proposal.yaml')],
      ['register', join(tmp.dir, 'pending.yaml')],
      ['approvals', '--json'],
      ['approvals'],
      ['stats', '--json'],
      ['doctor'],
    ])
      await carte(...args);
    const created = await carte(
      'token',
      'create',
      '--project',
      'default',
      '--scope',
      'admin',
      '--name',
      'ci',
    );
    expect(created.code, created.stderr).toBe(0);
    token = created.stdout.trimEnd();
    // Once, alone on the last line; the note on stderr names only the public id.
    expect(created.stdout).toBe(`${token}\n`);
    expect(token).toMatch(/^carte_[A-Za-z0-9_-]{43}$/);
    outputs.push({ args: ['token create (stderr)'], code: 0, stdout: '', stderr: created.stderr });
    for (const args of [
      ['token', 'list', '--json'],
      ['token', 'list'],
      ['token', 'revoke', token],
    ])
      await carte(...args);
    for (const args of [['audit'], ['audit', '--json'], ['audit', 'export']]) await carte(...args);
    // The commands did their work (so the grep below looks at real output).
    const out = (cmd: string) => outputs.find((r) => r.args.join(' ').startsWith(cmd))!;
    expect(out('call faults/stats').code).toBe(0);
    expect(out('register').stdout + out('register').stderr).toContain('leaky');
    expect(out('audit export').stdout.split('\n').length).toBeGreaterThan(5);
    expect(out('approvals --json').stdout).toContain('"server": "pend"');
  }, 300_000);

  // `audit.arguments: redacted` in the config reaches the gateway (openApp passes it).
  it('audit.arguments: redacted in the config stores the arguments, redacted', () => {
    const exported = outputs.find((r) => r.args.join(' ') === 'audit export')!.stdout;
    expect(exported).toContain('[redacted]');
  });

  it.each(Object.keys(SECRET) as (keyof typeof SECRET)[])('%s: in no output of any command', (name) => {
    const found = outputs.filter((r) => hits(r.stdout + r.stderr, SECRET[name]));
    expect(found.map((r) => `${r.args.join(' ')}: ${excerpt(r.stdout + r.stderr, SECRET[name])}`)).toEqual(
      [],
    );
  });

  it('the token: in no output but its creation', () => {
    expect(token).not.toBe('');
    expect(outputs.filter((r) => hits(r.stdout + r.stderr, token)).map((r) => r.args.join(' '))).toEqual([]);
  });

  it('no secret in any byte of the data dir (the store, its WAL, anything else)', () => {
    const files = readdirSync(DATA, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.map((f) => f.name)).toContain('carte.db');
    const bytes = files.map((f) => readFileSync(join(f.parentPath, f.name)).toString('latin1')).join('\n');
    const found = [...Object.entries(SECRET), ['token', token]].filter(([, s]) => hits(bytes, s!));
    expect(found.map(([n]) => n)).toEqual([]);
  });
});

function excerpt(text: string, secret: string): string {
  const at = hitAt(text, secret);
  return JSON.stringify(text.slice(Math.max(0, at - 160), at + 40));
}
