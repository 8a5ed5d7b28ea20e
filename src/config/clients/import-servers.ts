import { CarteError, quote } from '../../errors.js';
import type { IncomingServer } from '../edit/merge-servers.js';
import { DIALECTS } from '../formats/dialects.js';
import { translateServer } from '../formats/foreign-server.js';
import { isRecord, Problems } from '../problems/problems.js';
import { inlineSecrets } from '../proposals/proposal-checks.js';
import { isServerId, normaliseServerId } from '../schema/server-ids.js';
import type { ClientSpec } from './client-table.js';

/** A client's servers in Carte's format, with what a person should hear about them. */
export interface ImportedServers {
  incoming: IncomingServer[];
  /** Keys Carte does not read, dropped: `mcpServers.x.alwaysAllow: ignored unknown key ...`. */
  warnings: string[];
  /** Secrets written inline, kept as they were: `github: env.GITHUB_TOKEN holds a GitHub token ...`. */
  secrets: string[];
}

/**
 * Rewrites a client's servers into Carte's format, values as they were (secrets included), with
 * the same reader `--config` uses for that client's files. A server Carte cannot read is a
 * CarteError 'bad_config' naming it and the file, and nothing is moved.
 */
export function importServers(
  spec: ClientSpec,
  path: string,
  section: Record<string, unknown>,
): ImportedServers {
  const out = new Problems();
  const incoming: IncomingServer[] = [];
  const secrets: string[] = [];
  const taken = new Map<string, string>();
  for (const [writtenId, raw] of Object.entries(section)) {
    const id = carteId(writtenId, path, taken);
    if (isRecord(raw) && Object.hasOwn(raw, 'envFile'))
      throw refuse(writtenId, path, '"envFile" is not moved; put its variables under "env" first');
    const place = {
      path: [spec.section, writtenId],
      dialect: DIALECTS[spec.dialect],
      files: { env: {}, server: writtenId },
    };
    const t = translateServer(raw, place, out);
    const first = out.errors[0];
    if (first !== undefined || !isRecord(t.server))
      throw refuse(writtenId, path, first ? `${first.path}: ${first.message}` : 'it is not an object');
    incoming.push({ id, entry: t.server, from: path, writtenId });
    for (const p of inlineSecrets(id, t.server))
      secrets.push(`${id}: ${p.path.replace(`servers.${id}.`, '')} ${p.message}`);
  }
  return { incoming, warnings: out.warnings.map((w) => `${w.path}: ${w.message}`), secrets };
}

/** The id in Carte's config: as written when valid, else normalised ("My Server" -> "my-server"). */
function carteId(writtenId: string, path: string, taken: Map<string, string>): string {
  const id = isServerId(writtenId) ? writtenId : normaliseServerId(writtenId);
  if (id === '') throw refuse(writtenId, path, 'its id has no letters or digits to make a Carte id from');
  const holder = taken.get(id);
  if (holder !== undefined)
    throw refuse(
      writtenId,
      path,
      `its id becomes ${JSON.stringify(id)}, as ${JSON.stringify(holder)}'s does`,
    );
  taken.set(id, writtenId);
  return id;
}

function refuse(writtenId: string, path: string, why: string): CarteError {
  return new CarteError(
    'bad_config',
    `cannot move server ${JSON.stringify(writtenId)} from ${quote(path, 200)}: ${why}`,
  );
}
