// Secrets at rest (issue 41): AES-256-GCM under a key kept outside the database, so a copy of the
// store file or a database dump alone reveals no token. The key is `CARTE_SECRET_KEY` (32 bytes,
// base64 or hex; what every replica of a team shares) or, failing that, a key file made on first
// use with mode 0600 (`<dataDir>/secret.key`). docs/security.md says what this does not protect.
//
// Rotation (docs/upstream-auth.md, "Key rotation"): the box also opens what the previous key
// sealed (`CARTE_SECRET_KEY_PREVIOUS`, or `secret.key.previous` while `carte auth rotate-key` runs),
// and always seals under the current key. A value names its key: `v2.<key id>.<iv>.<tag>.<body>`,
// the id 8 characters of a hash of the key (it reveals nothing of the key), so opening picks the
// key at once. The first format, `v1.<iv>.<tag>.<body>`, names none: each key is tried.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { CarteError } from '../../errors.js';

/** Where the keys come from: the variables' values (read by the CLI), else the key file's path. */
export interface SecretKeySource {
  /** CARTE_SECRET_KEY's value, when set. */
  key?: string;
  /** The key file, made on first use when missing; `<file>.previous` is read as a previous key. */
  file?: string;
  /** CARTE_SECRET_KEY_PREVIOUS's value: a key that still opens what it sealed (a rotation under way). */
  previousKey?: string;
}

/** Seals and opens short secrets; `context` binds a sealed value to its row (it cannot be moved). */
export interface SecretBox {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
  /** Whether `sealed` names the current key (false: a previous key, or the first format, which names none). */
  isCurrent(sealed: string): boolean;
  /** Reads every key now (current and previous), so a malformed one is named before any work. */
  check(): void;
}

/** How the messages say to make a key. */
export const MAKE_KEY = 'make one with "openssl rand -base64 32"';
const KEY_BYTES = 32;

interface Key {
  id: string;
  bytes: Buffer;
}

/** A box over the keys `source` names, read (or made) on first use only. */
export function secretBox(source: SecretKeySource = {}): SecretBox {
  const keys = keyring(source);
  return {
    seal(plain, context) {
      const key = keys.current();
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v2', key.id, ...[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64'))].join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      const [version] = parts;
      if (version === 'v2' && parts.length === 5) {
        const current = keys.current(); // the previous keys (a file to stat) only when it is not
        const key = current.id === parts[1] ? current : keys.previous().find((k) => k.id === parts[1]);
        if (!key) throw cannotOpen(context);
        return decrypt(key, parts.slice(2), context);
      }
      if (version === 'v1' && parts.length === 4) {
        for (const key of [keys.current(), ...keys.previous()]) {
          try {
            return decrypt(key, parts.slice(1), context);
          } catch (err) {
            if (!(err instanceof CarteError) || err.code !== 'store') throw err;
          }
        }
        throw cannotOpen(context);
      }
      throw new CarteError('store', `a sealed secret of "${context}" is not in a format this Carte reads`);
    },
    isCurrent(sealed) {
      const [version, id] = sealed.split('.');
      return version === 'v2' && id === keys.current().id;
    },
    check() {
      keys.current();
      keys.previous();
    },
  };
}

function decrypt(key: Key, [iv, tag, body]: string[], context: string): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv!, 'base64'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag!, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body!, 'base64')), decipher.final()]).toString('utf8');
  } catch (err) {
    throw cannotOpen(context, err);
  }
}

function cannotOpen(context: string, cause?: unknown): CarteError {
  return new CarteError(
    'store',
    `the stored secrets of "${context}" cannot be opened with this secret key (another CARTE_SECRET_KEY or secret.key sealed them); sign in again, or use the key that sealed them`,
    cause === undefined ? {} : { cause },
  );
}

/** The key's id in sealed values: 8 characters of a hash of it (no key material can be read back). */
export function keyId(bytes: Buffer): string {
  return createHash('sha256').update('carte secret key id\0').update(bytes).digest('base64url').slice(0, 8);
}

/**
 * The current key and the previous ones. A key file is read again when it changed on disk, so a
 * running gateway follows `carte auth rotate-key` without a restart; the variables are read once.
 */
function keyring(source: SecretKeySource): { current(): Key; previous(): Key[] } {
  const env = source.key !== undefined && source.key !== '';
  const current = env ? constant(() => decodeKey(source.key!.trim(), 'CARTE_SECRET_KEY')) : undefined;
  const file = source.file && !env ? fileKey(source.file, true) : undefined;
  const previousEnv =
    source.previousKey !== undefined && source.previousKey !== ''
      ? constant(() => decodeKey(source.previousKey!.trim(), 'CARTE_SECRET_KEY_PREVIOUS'))
      : undefined;
  const previousFile = source.file ? fileKey(`${source.file}.previous`, false) : undefined;
  return {
    current: () => {
      if (current) return current();
      if (file) return file()!;
      throw new CarteError(
        'bad_config',
        `no secret key to seal upstream sign-ins with; set CARTE_SECRET_KEY (${MAKE_KEY}), the same on every replica`,
      );
    },
    previous: () => [previousEnv?.(), previousFile?.()].filter((k): k is Key => k !== undefined),
  };
}

function constant(load: () => Buffer): () => Key {
  let key: Key | undefined;
  return () => {
    if (key) return key;
    const bytes = load();
    return (key = { id: keyId(bytes), bytes });
  };
}

/** A key file's key, read again when the file changed; `make`: made (0600) when missing, else undefined. */
function fileKey(path: string, make: boolean): () => Key | undefined {
  let seen: { stamp: string; key: Key } | undefined;
  const load = (): Key | undefined => {
    let stamp: string;
    try {
      const s = statSync(path);
      stamp = `${s.ino}:${s.mtimeMs}:${s.size}`;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'ENOENT') throw asKeyError(err, path);
      if (!make) return undefined;
      makeKeyFile(path);
      return load();
    }
    if (seen?.stamp === stamp) return seen.key;
    let bytes: Buffer;
    try {
      bytes = decodeKey(readFileSync(path, 'utf8').trim(), `the key file "${path}"`);
    } catch (err) {
      throw asKeyError(err, path);
    }
    seen = { stamp, key: { id: keyId(bytes), bytes } };
    return seen.key;
  };
  return load;
}

function makeKeyFile(path: string): void {
  try {
    writeFileSync(path, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process made it first: use theirs.
    if ((err as { code?: unknown }).code !== 'EEXIST') throw asKeyError(err, path);
  }
}

function asKeyError(err: unknown, file: string): CarteError {
  if (err instanceof CarteError) return err;
  return new CarteError(
    'store',
    `cannot read or make the secret key file "${file}": ${(err as Error).message}`,
    {
      cause: err,
    },
  );
}

/** 32 bytes from base64 or hex; the value itself is never printed. */
export function decodeKey(text: string, where: string): Buffer {
  const hex = /^[0-9a-f]{64}$/i.test(text);
  const bytes = hex ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== KEY_BYTES || (!hex && !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)))
    throw new CarteError(
      'bad_config',
      `${where} is not a 32-byte key in base64 or hex (44 base64 characters, or 64 hex digits); ${MAKE_KEY}`,
    );
  return bytes;
}

/**
 * The key file's half of a local rotation (`carte auth rotate-key`): keeps the key as
 * `<file>.previous` and writes a fresh one, each file whole (0600, written aside, then renamed).
 * `resumed`: a `<file>.previous` other than the key is there already (a rotation was interrupted),
 * so no new key is made; `no_key`: there is no key file yet.
 */
export function rotateKeyFile(file: string): 'rotated' | 'resumed' | 'no_key' {
  const previous = `${file}.previous`;
  const current = readKeyFile(file);
  const before = readKeyFile(previous);
  if (before && !(current && before.equals(current))) return 'resumed';
  if (!current) return 'no_key';
  writeKeyFile(previous, current);
  writeKeyFile(file, randomBytes(KEY_BYTES));
  return 'rotated';
}

/** Ends a local rotation: every sign-in is sealed under the new key, so the previous one goes. */
export function finishKeyFileRotation(file: string): void {
  rmSync(`${file}.previous`, { force: true });
}

function readKeyFile(path: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return undefined;
    throw asKeyError(err, path);
  }
  return decodeKey(text.trim(), `the key file "${path}"`);
}

/** Writes a key file whole: to a file beside it (0600), flushed, then renamed over it. */
function writeKeyFile(path: string, key: Buffer): void {
  const aside = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(aside, 'w', 0o600);
    try {
      writeSync(fd, `${key.toString('base64')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(aside, 0o600); // a umask cannot widen it, but an old file of that name could be wider
    renameSync(aside, path);
  } catch (err) {
    rmSync(aside, { force: true });
    throw asKeyError(err, path);
  }
}
