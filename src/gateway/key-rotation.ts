// `carte auth rotate-key` (docs/upstream-auth.md, "Key rotation"): every upstream sign-in sealed
// again under a new secret key, losing none. Locally (no CARTE_SECRET_KEY) it makes the new
// `secret.key` itself, keeping the old one as `secret.key.previous` until every record is
// re-sealed; with CARTE_SECRET_KEY set, the operator gave the new key there and the old one as
// CARTE_SECRET_KEY_PREVIOUS, and it re-seals whatever the previous key sealed. Re-running an
// interrupted rotation finishes it. Never a key or a token in what it says.
import { CarteError } from '../errors.js';
import { finishKeyFileRotation, rotateKeyFile, type Store } from '../store/index.js';

/** How the keys are given: the key file (SQLite without CARTE_SECRET_KEY), or the variables. */
export interface KeyRotationSource {
  /** `<dataDir>/secret.key`. */
  keyFile: string;
  /** Whether CARTE_SECRET_KEY is set (the new key) and CARTE_SECRET_KEY_PREVIOUS (the old). */
  envKey: boolean;
  envPreviousKey: boolean;
}

/** What a rotation did. */
export interface KeyRotation {
  /** `file`: a new secret.key was made (or a rotation resumed); `env`: re-sealed under CARTE_SECRET_KEY. */
  mode: 'file' | 'env';
  resumed: boolean;
  resealed: number;
  total: number;
}

/** Told of each step (`step`) and each record (`record`), to show progress. */
export interface KeyRotationReport {
  step(text: string): void;
  record(serverId: string, index: number, total: number): void;
}

export async function rotateSecretKey(
  store: Store,
  source: KeyRotationSource,
  report: KeyRotationReport,
): Promise<KeyRotation> {
  if (source.envKey) {
    if (!source.envPreviousKey)
      report.step(
        'CARTE_SECRET_KEY_PREVIOUS is not set: only sign-ins sealed under CARTE_SECRET_KEY (or secret.key.previous) open',
      );
    const { resealed, total } = await store.upstreamAuth.reseal((id, i, n) => report.record(id, i, n));
    return { mode: 'env', resumed: false, resealed, total };
  }
  if (store.engine === 'postgres')
    throw new CarteError(
      'bad_config',
      'on PostgreSQL the secret key is CARTE_SECRET_KEY: set the new key as CARTE_SECRET_KEY and the old one as CARTE_SECRET_KEY_PREVIOUS on every replica, then run `carte auth rotate-key` once',
    );
  const started = rotateKeyFile(source.keyFile);
  if (started === 'no_key') {
    if ((await store.upstreamAuth.list()).length > 0)
      throw new CarteError(
        'store',
        `the key file "${source.keyFile}" is missing, so the stored sign-ins cannot be opened; put it back, or sign in again`,
      );
    report.step(`no secret key yet ("${source.keyFile}" does not exist) and no sign-ins: nothing to rotate`);
    return { mode: 'file', resumed: false, resealed: 0, total: 0 };
  }
  report.step(
    started === 'resumed'
      ? `resuming an interrupted rotation: "${source.keyFile}.previous" is still there`
      : `made a new "${source.keyFile}"; the old key is "${source.keyFile}.previous" until every sign-in is re-sealed`,
  );
  const { resealed, total } = await store.upstreamAuth.reseal((id, i, n) => report.record(id, i, n));
  finishKeyFileRotation(source.keyFile);
  return { mode: 'file', resumed: started === 'resumed', resealed, total };
}
