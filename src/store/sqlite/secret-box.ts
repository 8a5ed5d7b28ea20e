// Secrets at rest (issue 41): AES-256-GCM under a key kept outside the database, so a copy of the
// store file or a database dump alone reveals no token. The key is `CARTE_SECRET_KEY` (32 bytes,
// base64 or hex; what every replica of a team shares) or, failing that, a key file made on first
// use with mode 0600 (`<dataDir>/secret.key`). docs/security.md says what this does not protect.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { CarteError } from '../../errors.js';

/** Where the key comes from: the variable's value (read by the CLI), else the key file's path. */
export interface SecretKeySource {
  /** CARTE_SECRET_KEY's value, when set. */
  key?: string;
  /** The key file, made on first use when missing. */
  file?: string;
}

/** Seals and opens short secrets; `context` binds a sealed value to its row (it cannot be moved). */
export interface SecretBox {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

const VERSION = 'v1';
/** How the messages say to make a key. */
export const MAKE_KEY = 'make one with "openssl rand -base64 32"';
const KEY_BYTES = 32;

/** A box over the key `source` names, read (or made) on first use only. */
export function secretBox(source: SecretKeySource = {}): SecretBox {
  let key: Buffer | undefined;
  const theKey = (): Buffer => (key ??= loadKey(source));
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', theKey(), iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
        .join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new CarteError('store', `a sealed secret of "${context}" is not in a format this Carte reads`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', theKey(), Buffer.from(iv, 'base64'));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString(
          'utf8',
        );
      } catch (err) {
        if (err instanceof CarteError) throw err;
        throw new CarteError(
          'store',
          `the stored secrets of "${context}" cannot be opened with this secret key (another CARTE_SECRET_KEY or secret.key sealed them); sign in again, or use the key that sealed them`,
          { cause: err },
        );
      }
    },
  };
}

function loadKey(source: SecretKeySource): Buffer {
  if (source.key !== undefined && source.key !== '') return decodeKey(source.key.trim(), 'CARTE_SECRET_KEY');
  if (!source.file)
    throw new CarteError(
      'bad_config',
      `no secret key to seal upstream sign-ins with; set CARTE_SECRET_KEY (${MAKE_KEY}), the same on every replica`,
    );
  try {
    return decodeKey(readFileSync(source.file, 'utf8').trim(), `the key file "${source.file}"`);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ENOENT') throw asKeyError(err, source.file);
  }
  const made = randomBytes(KEY_BYTES).toString('base64');
  try {
    writeFileSync(source.file, `${made}\n`, { mode: 0o600, flag: 'wx' });
    return Buffer.from(made, 'base64');
  } catch (err) {
    // Another process made it first: use theirs.
    if ((err as { code?: unknown }).code === 'EEXIST') return loadKey(source);
    throw asKeyError(err, source.file);
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
function decodeKey(text: string, where: string): Buffer {
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== KEY_BYTES)
    throw new CarteError('bad_config', `${where} is not a 32-byte key in base64 or hex; ${MAKE_KEY}`);
  return bytes;
}
