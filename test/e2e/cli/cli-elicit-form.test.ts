import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

// Slow: `carte call` (the built CLI) answering an upstream's form elicitation during a call
// (SEP-1034, issue 41): `--yes` sends the form's defaults, no terminal declines, and on a
// pseudo-terminal (test/e2e/cli/pty-drive.py, python3's pty) each field is asked with its default.
// The fixture (test/fixtures/elicit-form.mjs) returns what came back as the tool's text. Then an
// upstream's -32042 (URL elicitation required): `carte call` prints the page, and `carte serve`
// relays it as -32042 to a client that declared URL elicitation, as a tool error to others.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
const DATA = join(tmp.dir, 'data');
const CONFIG = join(tmp.dir, 'carte.yaml');
const ENV = { ...process.env, CARTE_CONFIG: '' };
const DEFAULTS = 'accept {"name":"John Doe","age":30,"status":"active","verified":true}';
afterAll(() => tmp.cleanup());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function carte(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', DATA, '--config', CONFIG, ...args],
      { cwd: tmp.dir, env: ENV, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs `carte ARGS` on a pseudo-terminal, typing `answers` at its prompts: what the terminal showed. */
function onTerminal(answers: string[], ...args: string[]): Promise<{ code: number; shown: string }> {
  const command = [process.execPath, BIN, '--data-dir', DATA, '--config', CONFIG, ...args];
  return new Promise((resolve, reject) => {
    execFile(
      'python3',
      [join(import.meta.dirname, 'pty-drive.py'), JSON.stringify(command), JSON.stringify(answers)],
      { cwd: tmp.dir, env: ENV, timeout: 60_000 },
      (err, stdout) =>
        err
          ? reject(new Error(`pty-drive.py failed: ${err.message}`))
          : resolve(JSON.parse(stdout) as { code: number; shown: string }),
    );
  });
}

beforeAll(async () => {
  const fixture = join(FIXTURES, 'elicit-form.mjs');
  writeFileSync(
    CONFIG,
    `servers:
  form:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(fixture)}]
  legacy:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(fixture)}]
    env: { FIXTURE_ERA: legacy }
`,
  );
  const sync = await carte('sync');
  expect(sync.code, sync.stderr).toBe(0);
}, 60_000);

describe('carte call and an upstream form elicitation', () => {
  it.each(['form', 'legacy'])(
    '--yes accepts the form with its defaults (%s era)',
    { timeout: 60_000 },
    async (server) => {
      const r = await carte('call', `${server}/profile`, '--yes');
      expect(r.stdout.trim()).toBe(DEFAULTS);
      expect(r.stderr).toContain(`server "${server}" asks: Please fill in your profile`);
      expect(r.stderr).toContain('accepted with its defaults');
      expect(r.code).toBe(0);
    },
  );

  it('without --yes and without a terminal, the form is declined', { timeout: 60_000 }, async () => {
    const r = await carte('call', 'legacy/profile');
    expect(r.stdout.trim()).toBe('decline');
    expect(r.stderr).toContain('declined: no terminal to ask on');
    expect(r.code).toBe(0);
  });

  it('--yes declines a form whose required field has no default', { timeout: 60_000 }, async () => {
    const r = await carte('call', 'form/needs_name', '--yes');
    expect(r.stdout.trim()).toBe('decline');
    expect(r.stderr).toContain('--yes has no default for the required name');
  });

  it(
    'on a terminal, asks each field with its default and checks the answers',
    { timeout: 60_000 },
    async () => {
      // y: answer; a name; "abc" then 200 refused for the age, 40 taken; the status's default; "no".
      const answers = ['y', 'Jane', 'abc', '200', '40', '', 'no'];
      const r = await onTerminal(answers, 'call', 'legacy/profile');
      expect(r.shown).toContain('name (User name) [John Doe]: ');
      expect(r.shown).toContain('age (User age; a whole number) [30]: ');
      expect(r.shown).toContain('status (User status; one of active, inactive, pending) [active]: ');
      expect(r.shown).toContain('verified (Verification status; yes or no) [yes]: ');
      expect(r.shown).toContain('answer a number');
      expect(r.shown).toContain('at most 150');
      expect(r.shown).toContain('accept {"name":"Jane","age":40,"status":"active","verified":false}');
      expect(r.code).toBe(0);
    },
  );

  it('on a terminal, "n" declines the form', { timeout: 60_000 }, async () => {
    const r = await onTerminal(['n'], 'call', 'form/profile');
    expect(r.shown).toMatch(/\r?\ndecline\r?\n/);
    expect(r.code).toBe(0);
  });
});

/** A client of `carte serve` (stdio) that declares `capabilities`; closed by the caller. */
async function served(capabilities: Record<string, unknown>): Promise<Client> {
  const client = new Client({ name: 'test', version: '0' }, { capabilities });
  const args = [BIN, '--data-dir', DATA, '--config', CONFIG, 'serve'];
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args, env: ENV, stderr: 'pipe' }),
  );
  return client;
}

describe("an upstream's -32042 (URL elicitation required)", () => {
  const PAGE = 'https://example.com/connect?as=fixture';
  const call = { name: 'call_tool', arguments: { key: 'legacy/open_page', arguments: {} } };

  it(
    'carte call prints the page to open (an unsafe URL is dropped) and exits 77',
    { timeout: 60_000 },
    async () => {
      const r = await carte('call', 'legacy/open_page');
      expect(r.code).toBe(77);
      expect(r.stderr).toContain(
        `server "legacy" needs you to open this page in a browser, then make the call again: ${PAGE} (Connect your account)`,
      );
      expect(r.stderr).not.toContain('javascript:');
    },
  );

  it(
    'is relayed as -32042 with the checked elicitations to a client that opens URLs',
    { timeout: 60_000 },
    async () => {
      const client = await served({ elicitation: { url: {} } });
      try {
        const err = (await client.callTool(call).catch((e: unknown) => e)) as {
          code?: number;
          data?: unknown;
        };
        expect(err.code).toBe(-32042);
        expect(err.data).toEqual({
          elicitations: [
            { mode: 'url', elicitationId: 'connect-1', url: PAGE, message: 'Connect your account' },
          ],
        });
      } finally {
        await client.close();
      }
    },
  );

  it(
    'is a tool error naming the code and the pages to a client that does not',
    { timeout: 60_000 },
    async () => {
      const client = await served({});
      try {
        const result = await client.callTool(call);
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toContain('needs the user to open a page in a browser');
        const error = (result._meta as Record<string, { code: string; jsonrpc: number; details: unknown }>)[
          'carte/error'
        ]!;
        expect(error.code).toBe('url_elicitation_required');
        expect(error.jsonrpc).toBe(-32042);
        expect(JSON.stringify(error.details)).toContain(PAGE);
      } finally {
        await client.close();
      }
    },
  );
});
