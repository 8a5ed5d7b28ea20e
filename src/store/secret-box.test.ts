import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCipheriv, randomBytes } from 'node:crypto';
import { keyId, secretBox } from './sqlite/secret-box.js';

// The secret box with two keys (docs/upstream-auth.md, "Key rotation"): it seals under the current
// key, opens what the previous one sealed, names each value's key, and still reads the first
// format (`v1`, which names none).
const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
const b64 = (b: Buffer) => b.toString('base64');

/** A value in the first format (no key id), as Carte sealed them before rotation existed. */
function sealV1(key: Buffer, plain: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : b64(p))).join('.');
}

describe('the secret box', () => {
  it('names the key in each sealed value, and opens what the previous key sealed', () => {
    const old = secretBox({ key: b64(OLD) });
    const sealed = old.seal('token', 'upstream_auth:notes');
    expect(sealed.split('.').slice(0, 2)).toEqual(['v2', keyId(OLD)]);
    expect(keyId(OLD)).toMatch(/^[\w-]{8}$/);
    expect(keyId(OLD)).not.toBe(keyId(NEW));
    const both = secretBox({ key: b64(NEW), previousKey: OLD.toString('hex') });
    expect(both.open(sealed, 'upstream_auth:notes')).toBe('token');
    expect(both.isCurrent(sealed)).toBe(false);
    const resealed = both.seal('token', 'upstream_auth:notes');
    expect(both.isCurrent(resealed)).toBe(true);
    expect(resealed.split('.')[1]).toBe(keyId(NEW));
    // The new key alone opens the new value, not the old; the old alone opens neither new one.
    expect(secretBox({ key: b64(NEW) }).open(resealed, 'upstream_auth:notes')).toBe('token');
    expect(() => secretBox({ key: b64(NEW) }).open(sealed, 'upstream_auth:notes')).toThrow(
      'cannot be opened with this secret key',
    );
    expect(() => old.open(resealed, 'upstream_auth:notes')).toThrow('cannot be opened with this secret key');
    // The context still binds a value to its row, whichever key opens it.
    expect(() => both.open(sealed, 'upstream_auth:other')).toThrow('cannot be opened');
  });

  it('reads the first format under either key', () => {
    const v1 = sealV1(OLD, 'token', 'upstream_auth:notes');
    const both = secretBox({ key: b64(NEW), previousKey: b64(OLD) });
    expect(both.open(v1, 'upstream_auth:notes')).toBe('token');
    expect(both.isCurrent(v1)).toBe(false);
    expect(secretBox({ key: b64(OLD) }).open(v1, 'upstream_auth:notes')).toBe('token');
    expect(() => secretBox({ key: b64(NEW) }).open(v1, 'upstream_auth:notes')).toThrow(
      'cannot be opened with this secret key',
    );
  });

  it('opens with <file>.previous, and follows a key file that changed on disk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-box-'));
    try {
      const file = join(dir, 'secret.key');
      writeFileSync(file, `${b64(OLD)}\n`, { mode: 0o600 });
      const box = secretBox({ file });
      const sealed = box.seal('token', 'c');
      expect(sealed.split('.')[1]).toBe(keyId(OLD));
      writeFileSync(`${file}.previous`, `${b64(OLD)}\n`, { mode: 0o600 });
      writeFileSync(file, `${NEW.toString('hex')}\n`, { mode: 0o600 });
      expect(box.seal('token', 'c').split('.')[1]).toBe(keyId(NEW)); // the same box, the new key
      expect(box.open(sealed, 'c')).toBe('token');
      rmSync(`${file}.previous`);
      expect(() => box.open(sealed, 'c')).toThrow('cannot be opened with this secret key');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the variable and the shape a malformed key must have, never the key', () => {
    const bad = 'sk-not-base64-and-rather-secret!';
    for (const [source, name] of [
      [{ key: bad }, 'CARTE_SECRET_KEY'],
      [{ key: b64(NEW), previousKey: bad }, 'CARTE_SECRET_KEY_PREVIOUS'],
      [{ key: b64(NEW), previousKey: b64(Buffer.alloc(16, 1)) }, 'CARTE_SECRET_KEY_PREVIOUS'],
    ] as const) {
      const box = secretBox(source);
      let message = '';
      try {
        box.open(box.seal('x', 'c').replace(/^v2\.[^.]+/, 'v2.unknown0'), 'c');
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toBe(
        `${name} is not a 32-byte key in base64 or hex (44 base64 characters, or 64 hex digits); make one with "openssl rand -base64 32"`,
      );
      expect(message).not.toContain(bad);
    }
  });
});
