import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../../src/gateway/index.js';
import type { StoreOptions } from '../../../src/store/index.js';
import { createDatabase, PG_RUN_URL } from '../../../src/store/test-engines.js';
import { ROOT, tempDir } from '../helpers.js';

// Slow: `carte auth rotate-key` with the built CLI on a real store holding a sealed sign-in
// (docs/upstream-auth.md, "Key rotation"): the record still opens after, the old key alone no
// longer opens it, and neither key nor token is ever printed. SQLite with its key file (a fresh
// rotation and an interrupted one), and CARTE_SECRET_KEY with CARTE_SECRET_KEY_PREVIOUS on SQLite
// and PostgreSQL.
const BIN = join(ROOT, 'bin', 'carte.js');
const TOKEN = 'at-7e57-SECRET-ACCESS-TOKEN';
const record = { tokens: { access_token: TOKEN, token_type: 'bearer' } };
const facts = { expiresAt: null, scope: 'mcp:tools', refreshable: false };
const OLD = Buffer.alloc(32, 41).toString('base64');
const NEW = Buffer.alloc(32, 42).toString('hex');
const tmp = tempDir('carte-rotate-');
const CONFIG = join(tmp.dir, 'carte.yaml');
writeFileSync(CONFIG, 'servers: {}\n');
afterAll(() => tmp.cleanup());

function carte(env: Record<string, string>, ...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--config', CONFIG, ...args],
      {
        cwd: tmp.dir,
        env: {
          ...process.env,
          CARTE_CONFIG: '',
          CARTE_SECRET_KEY: '',
          CARTE_SECRET_KEY_PREVIOUS: '',
          ...env,
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Opens the store at `location` with `secretKey`, and reads the record (or the error's message). */
async function read(location: string, secretKey: StoreOptions['secretKey']): Promise<unknown> {
  const store = await openStore(location, { secretKey });
  try {
    return (await store.upstreamAuth.get('notes'))?.record;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await store.close();
  }
}

async function seal(location: string, secretKey: StoreOptions['secretKey']): Promise<void> {
  const store = await openStore(location, { secretKey });
  await store.upstreamAuth.put('notes', record, facts);
  await store.close();
}

/** Nothing printed holds a key (in any encoding we hold it in) or the token. */
function expectNoSecrets(out: { stdout: string; stderr: string }, ...keys: string[]): void {
  const text = out.stdout + out.stderr;
  for (const k of keys) {
    const bytes = Buffer.from(k, /^[0-9a-f]{64}$/.test(k) ? 'hex' : 'base64');
    for (const form of [bytes.toString('base64'), bytes.toString('hex'), bytes.toString('base64url')])
      expect(text).not.toContain(form);
  }
  expect(text).not.toContain(TOKEN);
}

const CANNOT = 'cannot be opened with this secret key';

describe('carte auth rotate-key on SQLite with its key file', () => {
  const data = join(tmp.dir, 'local');
  const db = join(data, 'carte.db');
  const keyFile = join(data, 'secret.key');

  it('makes a new 0600 secret.key, re-seals the sign-in under it and drops the old key', async () => {
    mkdirSync(data, { recursive: true });
    await seal(db, { file: keyFile });
    const old = readFileSync(keyFile, 'utf8').trim();
    const r = await carte({}, '--data-dir', data, 'auth', 'rotate-key');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('re-sealed 1 sign-in under the new secret.key; the previous key is removed\n');
    expect(r.stderr).toContain(`made a new "${keyFile}"`);
    expect(r.stderr).toContain('[1/1] notes');
    const fresh = readFileSync(keyFile, 'utf8').trim();
    expect(fresh).not.toBe(old);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(existsSync(`${keyFile}.previous`)).toBe(false);
    expect(await read(db, { file: keyFile })).toEqual(record);
    expect(await read(db, { key: old })).toContain(CANNOT);
    expectNoSecrets(r, old, fresh);
  });

  it('finishes an interrupted rotation when run again, without making another key', async () => {
    // As if stopped after the new key was written and before the records were re-sealed.
    const before = readFileSync(keyFile, 'utf8').trim();
    writeFileSync(`${keyFile}.previous`, `${before}\n`, { mode: 0o600 });
    writeFileSync(keyFile, `${NEW}\n`, { mode: 0o600 });
    const r = await carte({}, '--data-dir', data, 'auth', 'rotate-key');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('resuming an interrupted rotation');
    expect(r.stdout).toBe('re-sealed 1 sign-in under the new secret.key; the previous key is removed\n');
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(NEW);
    expect(existsSync(`${keyFile}.previous`)).toBe(false);
    expect(await read(db, { key: NEW })).toEqual(record);
    expect(await read(db, { key: before })).toContain(CANNOT);
    expectNoSecrets(r, before, NEW);
  });
});

const engines = [
  { name: 'sqlite', location: () => Promise.resolve(join(tmp.dir, 'env', 'carte.db')), env: () => ({}) },
  ...(PG_RUN_URL
    ? [
        {
          name: 'postgres',
          location: () => createDatabase(),
          env: (url: string) => ({ CARTE_DATABASE_URL: url }),
        },
      ]
    : []),
];

describe.each(engines)('carte auth rotate-key with CARTE_SECRET_KEY on $name', (engine) => {
  it('re-seals under CARTE_SECRET_KEY what CARTE_SECRET_KEY_PREVIOUS sealed', async () => {
    const location = await engine.location();
    const data = join(tmp.dir, `env-${engine.name}`);
    mkdirSync(data, { recursive: true });
    if (engine.name === 'sqlite') mkdirSync(join(tmp.dir, 'env'), { recursive: true });
    await seal(location, { key: OLD });
    const env = { ...engine.env(location), CARTE_SECRET_KEY: NEW, CARTE_SECRET_KEY_PREVIOUS: OLD };
    const args = engine.name === 'sqlite' ? ['--data-dir', join(tmp.dir, 'env')] : ['--data-dir', data];
    const r = await carte(env, ...args, 'auth', 'rotate-key');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      're-sealed 1 sign-in under CARTE_SECRET_KEY; once every replica runs with it, remove CARTE_SECRET_KEY_PREVIOUS\n',
    );
    expect(await read(location, { key: NEW })).toEqual(record);
    expect(await read(location, { key: OLD })).toContain(CANNOT);
    expectNoSecrets(r, OLD, NEW);
    // Run again: nothing left to re-seal.
    const again = await carte(env, ...args, 'auth', 'rotate-key');
    expect(again.stdout).toBe(
      're-sealed 0 sign-ins under CARTE_SECRET_KEY (1 already under the new key); once every replica runs with it, remove CARTE_SECRET_KEY_PREVIOUS\n',
    );
  });

  it('names a malformed CARTE_SECRET_KEY_PREVIOUS and the shape it wants, never its value', async () => {
    const location = await engine.location();
    const bad = 'c2hvcnQtYnV0LXNlY3JldC12YWx1ZQ==';
    const env = {
      ...engine.env(location),
      CARTE_SECRET_KEY: Buffer.alloc(32, 43).toString('base64'),
      CARTE_SECRET_KEY_PREVIOUS: bad,
    };
    const args =
      engine.name === 'sqlite'
        ? ['--data-dir', join(tmp.dir, 'env')]
        : ['--data-dir', join(tmp.dir, `env-${engine.name}`)];
    const r = await carte(env, ...args, 'auth', 'rotate-key');
    expect(r.code).toBe(78);
    expect(r.stderr).toContain(
      'CARTE_SECRET_KEY_PREVIOUS is not a 32-byte key in base64 or hex (44 base64 characters, or 64 hex digits); make one with "openssl rand -base64 32"',
    );
    expect(r.stdout + r.stderr).not.toContain(bad);
  });
});
