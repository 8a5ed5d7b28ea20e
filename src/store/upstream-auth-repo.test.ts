import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from './index.js';
import { MIGRATIONS } from './sqlite/migrations.js';
import { testEngines } from './test-engines.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const OTHER = Buffer.alloc(32, 9).toString('hex');
const TOKEN = 'at-4f1c0ffee-SECRET-ACCESS';
const REFRESH = 'rt-9abcdef-SECRET-REFRESH';
const record = { tokens: { access_token: TOKEN, refresh_token: REFRESH, token_type: 'bearer' } };
const facts = { expiresAt: 1_900_000_000_000, scope: 'mcp:tools', refreshable: true };

describe.each(testEngines(afterEach))('UpstreamAuthRepo on $name', (engine) => {
  it('seals a record, reads it back and lists only its clear facts', async () => {
    const store = await engine.open({ secretKey: { key: KEY } });
    await store.upstreamAuth.put('notes', record, facts, 1000);
    expect(await store.upstreamAuth.get('notes')).toEqual({
      meta: { serverId: 'notes', subject: '', ...facts, updatedAt: 1000 },
      record,
    });
    expect(await store.upstreamAuth.list()).toEqual([
      { serverId: 'notes', subject: '', ...facts, updatedAt: 1000 },
    ]);
    const rows = await engine.sql(store, 'SELECT * FROM upstream_auth');
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(JSON.stringify(rows)).not.toContain('SECRET');
    expect(await store.upstreamAuth.remove('notes')).toBe(true);
    expect(await store.upstreamAuth.remove('notes')).toBe(false);
    expect(await store.upstreamAuth.get('notes')).toBeUndefined();
  });

  it('moves its signature at every save and forget, from any store on the database', async () => {
    const store = await engine.open({ secretKey: { key: KEY } });
    const other = await engine.reopen(store, { secretKey: { key: KEY } });
    const seen = [await store.upstreamAuth.signature()];
    await other.upstreamAuth.put('notes', record, facts, 1000);
    seen.push(await store.upstreamAuth.signature());
    await other.upstreamAuth.put('notes', record, facts, 2000);
    seen.push(await store.upstreamAuth.signature());
    await other.upstreamAuth.remove('notes');
    seen.push(await store.upstreamAuth.signature());
    for (let i = 1; i < seen.length; i++) expect(seen[i]).not.toBe(seen[i - 1]);
  });

  it('refuses to open a record with another key, naming the fix', async () => {
    const store = await engine.open({ secretKey: { key: KEY } });
    await store.upstreamAuth.put('notes', record, facts);
    const other = await engine.reopen(store, { secretKey: { key: OTHER } });
    await expect(other.upstreamAuth.get('notes')).rejects.toThrow(
      'the stored secrets of "upstream_auth:notes" cannot be opened with this secret key (another CARTE_SECRET_KEY or secret.key sealed them); sign in again, or use the key that sealed them',
    );
  });

  it('keeps one record per subject beside the shared one, and forgets only the one named', async () => {
    const store = await engine.open({ secretKey: { key: KEY } });
    const own = (who: string) => ({ tokens: { access_token: `at-${who}`, token_type: 'bearer' } });
    await store.upstreamAuth.put('notes', own('shared'), facts, 1000);
    await store.upstreamAuth.put('notes', own('alice'), { ...facts, subject: 'alice@example.com' }, 2000);
    await store.upstreamAuth.put('notes', own('bob'), { ...facts, subject: 'bob' }, 3000);
    expect((await store.upstreamAuth.get('notes'))?.record).toEqual(own('shared'));
    expect((await store.upstreamAuth.get('notes', 'alice@example.com'))?.record).toEqual(own('alice'));
    expect((await store.upstreamAuth.get('notes', 'bob'))?.meta).toMatchObject({
      subject: 'bob',
      updatedAt: 3000,
    });
    expect(await store.upstreamAuth.get('notes', 'carol')).toBeUndefined();
    expect((await store.upstreamAuth.list()).map((m) => m.subject)).toEqual(['', 'alice@example.com', 'bob']);
    expect(await store.upstreamAuth.remove('notes', 'alice@example.com')).toBe(true);
    expect(await store.upstreamAuth.get('notes', 'alice@example.com')).toBeUndefined();
    expect((await store.upstreamAuth.get('notes'))?.record).toEqual(own('shared'));
    expect((await store.upstreamAuth.get('notes', 'bob'))?.record).toEqual(own('bob'));
  });

  it("seals each subject's record to its row: one copied into another subject's row does not open", async () => {
    const store = await engine.open({ secretKey: { key: KEY } });
    await store.upstreamAuth.put('notes', record, { ...facts, subject: 'alice' });
    await store.upstreamAuth.put('notes', { tokens: { access_token: 'bobs' } }, { ...facts, subject: 'bob' });
    await store.upstreamAuth.put('notes', { tokens: { access_token: 'shared' } }, facts);
    await engine.sql(
      store,
      "UPDATE upstream_auth SET sealed = (SELECT sealed FROM upstream_auth WHERE subject = 'alice') WHERE subject IN ('bob', '')",
    );
    await expect(store.upstreamAuth.get('notes', 'bob')).rejects.toThrow(
      'the stored secrets of "upstream_auth:notes#bob" cannot be opened with this secret key',
    );
    await expect(store.upstreamAuth.get('notes')).rejects.toThrow(
      'the stored secrets of "upstream_auth:notes" cannot be opened',
    );
    expect((await store.upstreamAuth.get('notes', 'alice'))?.record).toEqual(record);
  });

  it('refuses a CARTE_SECRET_KEY that is not 32 bytes, without echoing it', async () => {
    const store = await engine.open({ secretKey: { key: 'not-a-key' } });
    await expect(store.upstreamAuth.put('notes', record, facts)).rejects.toThrow(
      'CARTE_SECRET_KEY is not a 32-byte key in base64 or hex (44 base64 characters, or 64 hex digits); make one with "openssl rand -base64 32"',
    );
  });

  it('re-seals every row under the new key in one go, and a second run finds nothing to do', async () => {
    const old = await engine.open({ secretKey: { key: KEY } });
    await old.upstreamAuth.put('notes', record, facts, 1000);
    await old.upstreamAuth.put('tasks', { ...record, n: 2 }, facts, 1000);
    await old.upstreamAuth.put('tasks', { ...record, n: 3 }, { ...facts, subject: 'alice' }, 1000);
    const rotating = await engine.reopen(old, { secretKey: { key: OTHER, previousKey: KEY } });
    const seen: string[] = [];
    const done = await rotating.upstreamAuth.reseal((id, i, n) => seen.push(`${i + 1}/${n} ${id}`));
    expect(done).toEqual({ resealed: 3, total: 3 });
    expect(seen).toEqual(['1/3 notes', '2/3 tasks', '3/3 tasks']);
    expect(await rotating.upstreamAuth.reseal()).toEqual({ resealed: 0, total: 3 });
    // The new key alone opens them; the old key alone no longer does; the clear facts are unchanged.
    const after = await engine.reopen(old, { secretKey: { key: OTHER } });
    expect((await after.upstreamAuth.get('tasks'))?.record).toEqual({ ...record, n: 2 });
    // A person's record is re-sealed under its own context (server and subject).
    expect((await after.upstreamAuth.get('tasks', 'alice'))?.record).toEqual({ ...record, n: 3 });
    expect(await after.upstreamAuth.list()).toEqual(
      [
        ['notes', ''],
        ['tasks', ''],
        ['tasks', 'alice'],
      ].map(([serverId, subject]) => ({ serverId, subject, ...facts, updatedAt: 1000 })),
    );
    const before = await engine.reopen(old, { secretKey: { key: KEY } });
    await expect(before.upstreamAuth.get('notes')).rejects.toThrow('cannot be opened with this secret key');
  });

  it('re-seals nothing when one row opens with neither key, naming its server', async () => {
    const store = await engine.open({ secretKey: { key: KEY } });
    await store.upstreamAuth.put('notes', record, facts);
    const lost = await engine.reopen(store, { secretKey: { key: Buffer.alloc(32, 3).toString('base64') } });
    await lost.upstreamAuth.put('zeta', record, facts);
    const rotating = await engine.reopen(store, { secretKey: { key: OTHER, previousKey: KEY } });
    await expect(rotating.upstreamAuth.reseal()).rejects.toThrow(
      'the sign-in of server "zeta" opens with neither the current nor the previous secret key; nothing was re-sealed',
    );
    expect((await store.upstreamAuth.get('notes'))?.record).toEqual(record); // still under the old key
  });
});

describe.each(testEngines(afterEach).filter((e) => e.name === 'postgres'))(
  'UpstreamAuthRepo on $name',
  (engine) => {
    it('seals with CARTE_SECRET_KEY only: a key file of one replica would seal what the others cannot open', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'carte-pgkey-'));
      try {
        const store = await engine.open({ secretKey: { file: join(dir, 'secret.key') } });
        await expect(store.upstreamAuth.put('notes', record, facts)).rejects.toThrow(
          'no secret key to seal upstream sign-ins with; set CARTE_SECRET_KEY (make one with "openssl rand -base64 32"), the same on every replica',
        );
        expect(existsSync(join(dir, 'secret.key'))).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);

describe('the SQLite store file', () => {
  it('makes a 0600 key file on first use and never holds the token bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-auth-'));
    try {
      const keyFile = join(dir, 'secret.key');
      const store = await openStore(join(dir, 'carte.db'), { secretKey: { file: keyFile } });
      await store.upstreamAuth.put('notes', record, facts);
      await store.close();
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      for (const f of ['carte.db', 'carte.db-wal'].map((n) => join(dir, n))) {
        const bytes = (() => {
          try {
            return readFileSync(f);
          } catch {
            return Buffer.alloc(0);
          }
        })();
        expect(bytes.includes(Buffer.from(TOKEN))).toBe(false);
        expect(bytes.includes(Buffer.from(REFRESH))).toBe(false);
      }
      const again = await openStore(join(dir, 'carte.db'), { secretKey: { file: keyFile } });
      expect((await again.upstreamAuth.get('notes'))?.record).toEqual(record);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the sign-in migration (10) keeps a version-8 store's servers and tools, and allows needs_sign_in", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-mig-'));
    try {
      const path = join(dir, 'carte.db');
      const db = new Database(path);
      db.pragma('foreign_keys = ON');
      for (const m of MIGRATIONS.slice(0, 8)) db.exec(m);
      db.pragma('user_version = 8');
      db.prepare(
        "INSERT INTO servers (id, config_hash, status, tool_count) VALUES ('a', 'h', 'success', 1)",
      ).run();
      db.prepare(
        "INSERT INTO tools (key, server_id, name, content_hash, first_seen_at, last_seen_at) VALUES ('a/t', 'a', 't', 'c', 'x', 'x')",
      ).run();
      db.close();
      const store = await openStore(path);
      expect((await store.tools.listByServer('a')).map((t) => t.key)).toEqual(['a/t']);
      await store.servers.recordDiscovery('a', { status: 'needs_sign_in', at: 'now', error: 'e' });
      expect((await store.servers.get('a'))?.status).toBe('needs_sign_in');
      expect(await store.checkIntegrity()).toBe('ok');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the per-user migration (13) on SQLite', () => {
  it("keeps a version-12 store's sign-in as the shared one, still opening under its old seal", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-mig13-'));
    try {
      const path = join(dir, 'carte.db');
      const old = await openStore(path, { secretKey: { key: KEY } });
      await old.upstreamAuth.put('notes', record, facts, 1000);
      await old.close();
      // Back to version 12 as it was: the table without `subject`, the record sealed as then.
      const db = new Database(path);
      db.exec(`CREATE TABLE v12 AS SELECT server_id, sealed, expires_at, scope, refreshable, updated_at FROM upstream_auth;
               DROP TABLE upstream_auth; ALTER TABLE v12 RENAME TO upstream_auth;`);
      db.pragma('user_version = 12');
      db.close();
      const store = await openStore(path, { secretKey: { key: KEY } });
      expect(await store.upstreamAuth.get('notes')).toEqual({
        meta: { serverId: 'notes', subject: '', ...facts, updatedAt: 1000 },
        record,
      });
      await store.upstreamAuth.put('notes', record, { ...facts, subject: 'alice' });
      expect(await store.upstreamAuth.list()).toHaveLength(2);
      expect(await store.checkIntegrity()).toBe('ok');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
