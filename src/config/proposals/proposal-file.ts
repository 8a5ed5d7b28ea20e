import { readFileSync } from 'node:fs';
import { quote } from '../../errors.js';
import { detectFormat, type ConfigFormat } from '../formats/detect-format.js';
import { translateForeign } from '../formats/foreign.js';
import { parseText } from '../parse/parse-text.js';
import { describeValue, isRecord, Problems, type Problem, type Segment } from '../problems/problems.js';
import { checkProposal, type AllowMatch } from './proposal-checks.js';
import { allowedAtOnce } from './proposal-sandbox.js';
import type { RegistrationConfig } from '../schema/schema.js';

/** Largest registration file read, in bytes: a few servers fit in a few kilobytes. */
export const MAX_PROPOSAL_FILE_BYTES = 1_048_576;

/** One proposed server, checked. */
export interface CheckedProposal {
  /** Carte's id (a foreign id that breaks the id rule is normalised, with a warning). */
  id: string;
  /** The server in Carte's shape, as written (variables not expanded). */
  server: Record<string, unknown>;
  /** Every reason it is refused; empty when it may be approved. */
  problems: Problem[];
  /** The allow entry that approves it at once, when it has no problems and matches one. */
  allowedBy?: AllowMatch;
}

/** A registration file: problems with the file as a whole refuse every server in it. */
export interface ProposalFile {
  format: ConfigFormat;
  errors: Problem[];
  warnings: Problem[];
  proposals: CheckedProposal[];
}

/** Reads a registration file (YAML or JSON, Carte's format or `mcpServers`) and checks each server. */
export function readProposalFile(path: string, registration: RegistrationConfig): ProposalFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    const message = `cannot read ${quote(path, 200)} (${code === 'ENOENT' ? 'it does not exist' : code})`;
    return { format: 'carte', errors: [{ path: '', message }], warnings: [], proposals: [] };
  }
  return parseProposalText(text, path, registration);
}

/** Checks registration text; `path` picks YAML or JSON by its extension. Reads nothing else. */
export function parseProposalText(
  text: string,
  path: string,
  registration: RegistrationConfig,
): ProposalFile {
  const out = new Problems();
  const none = (format: ConfigFormat = 'carte') => ({
    format,
    errors: out.errors,
    warnings: out.warnings,
    proposals: [],
  });
  if (Buffer.byteLength(text, 'utf8') > MAX_PROPOSAL_FILE_BYTES) {
    out.error([], `the file is larger than ${MAX_PROPOSAL_FILE_BYTES} bytes; propose fewer servers at once`);
    return none();
  }
  const parsed = parseText(text, path, out);
  if (!parsed.ok) return none();
  const doc = parsed.value;
  if (!isRecord(doc)) {
    out.error([], `expected an object with "servers" or "mcpServers", got ${describeValue(doc)}`);
    return none();
  }
  const format = detectFormat(doc, path);
  const servers = serversOf(doc, format, out);
  if (servers === undefined || out.errors.length > 0) return none(format);
  const proposals = [...Object.entries(servers.doc)].map(([id, server]): CheckedProposal => {
    const problems = checkProposal(id, server, { deny: registration.deny, remap: servers.remap });
    const allowedBy =
      problems.length === 0
        ? allowedAtOnce(server as Record<string, unknown>, registration.allow)
        : undefined;
    return { id, server: server as Record<string, unknown>, problems, ...(allowedBy ? { allowedBy } : {}) };
  });
  return { format, errors: out.errors, warnings: out.warnings, proposals };
}

interface Servers {
  doc: Record<string, unknown>;
  remap: (path: Segment[]) => Segment[];
}

/** The servers in Carte's shape; a registration file holds servers and nothing else. */
function serversOf(doc: Record<string, unknown>, format: ConfigFormat, out: Problems): Servers | undefined {
  const section = format === 'claude' ? 'mcpServers' : 'servers';
  const allowed = ['$schema', section, ...(format === 'vscode' ? ['inputs'] : [])];
  for (const key of Object.keys(doc).filter((k) => !allowed.includes(k)))
    out.error([key], `a registration file proposes servers only; ${JSON.stringify(key)} is not read`);
  const written = doc[section];
  if (!isRecord(written) || Object.keys(written).length === 0) {
    out.error([section], `expected an object of one or more servers by id, got ${describeValue(written)}`);
    return undefined;
  }
  if (format === 'carte') return { doc: written, remap: (p) => p };
  // A proposal must not make Carte read files: VS Code's envFile is refused before translation.
  for (const [id, server] of Object.entries(written))
    if (isRecord(server) && Object.hasOwn(server, 'envFile'))
      out.error([section, id, 'envFile'], '"envFile" cannot be proposed; give the variables as ${env:NAME}');
  if (out.errors.length > 0) return undefined;
  const t = translateForeign(doc, { format, env: {} }, out);
  return { doc: t.doc.servers, remap: t.remap };
}
