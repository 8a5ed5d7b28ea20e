// Poisoning and drift (issue 15, item 7; docs/security.md ("Poisoning and drift")). Every listing of a server is
// scanned and, with pinning on, compared with the pins: each tool's accepted name, description,
// input schema and annotations. A tool is quarantined (kept from search and calls by the
// visibility policy, shown by `carte approvals`) when
// - `flagged`: the scanner found something in text that is not its pinned content. Such a tool
//   stays quarantined until a person approves it, even if a later listing is clean: a server
//   that served poisoned text once can serve it again, and the person should see it once.
// - `drift`: with pinning on, its content differs from its pin ("changed since it was
//   approved"). The pin keeps the approved content for the diff. A drifted tool whose content
//   goes back to the pin is released: what is listed again is what was approved.
// Pins: a clean tool without one is pinned as listed (trust on first use: the first discovery,
// or a tool added later); a flagged tool is pinned when approved. Removed tools lose their pins
// and entries, so a tool removed and listed again is pinned afresh (and scanned). With
// `trust.pin: false` scanning stays on; drift is not tracked: drift entries are released and
// pins that no longer match are dropped (those that match record approvals of flagged text).
// On a server's first discovery, pins and entries left by an earlier server of the same id
// (removed from the config) are forgotten. A config change keeps them: a changed command that
// serves changed tools is a change a person should look at.
import { createHash } from 'node:crypto';
import { CarteError } from '../../errors.js';
import type {
  QuarantineKind,
  QuarantineRow,
  Repositories,
  Store,
  StoredFinding,
  ToolRow,
} from '../../store/index.js';
import { escapeUnsafe, medianDescriptionLength, scanTool, type ScanFinding } from './poison-scan.js';
import { lineDiff } from './line-diff.js';
import { closestKeys } from './suggest.js';

export const DRIFT_REASON = 'changed since it was approved';
/** Up to this many quarantined keys are listed in the message for a key that is not quarantined. */
const LISTED_KEYS = 5;

export interface TrustOptions {
  /** Pin tools and quarantine drift (the server's `trust.pin`). */
  pin: boolean;
  /** The server's first successful discovery since it was added to the config. */
  firstDiscovery: boolean;
  /** Epoch milliseconds (default: now). */
  now?: number;
}

/** What one listing did to the trust state. */
export interface TrustReport {
  /** Tools quarantined by this listing (not those already in). */
  quarantined: string[];
  released: string[];
  pinned: number;
}

/** A quarantined tool as `carte approvals` shows it. */
export interface QuarantineEntry {
  key: string;
  server: string;
  kind: QuarantineKind;
  reason: string;
  /** ISO time it was quarantined. */
  since: string;
  findings: ScanFinding[];
  /** Unified-style line diff of the approved (pinned) content against the current one. */
  diff?: string;
}

/** The text that is pinned: canonical JSON (sorted keys) of what an agent reads to choose a tool. */
export function pinContent(t: Pick<ToolRow, 'name' | 'description' | 'inputSchema' | 'annotations'>): string {
  return canonicalJson({
    name: t.name,
    description: t.description ?? null,
    inputSchema: t.inputSchema ?? null,
    annotations: t.annotations ?? null,
  });
}

export const pinHash = (content: string): string => createHash('sha256').update(content).digest('hex');

/**
 * Scans and pins one server's listing (`rows`: its stored tools after the diff) and updates its
 * quarantine. Call it inside the sync's transaction.
 */
export async function applyTrust(
  store: Repositories,
  serverId: string,
  rows: readonly ToolRow[],
  options: TrustOptions,
): Promise<TrustReport> {
  const now = options.now ?? Date.now();
  const trust = store.trust;
  if (options.firstDiscovery) await trust.clearServer(serverId);
  const pins = await trust.pinsByServer(serverId);
  const held = new Map((await trust.listQuarantine(serverId)).map((q) => [q.key, q]));
  const listed = new Set(rows.map((r) => r.key));
  const gone = [...new Set([...pins.keys(), ...held.keys()])].filter((k) => !listed.has(k));
  await trust.deletePins(gone);
  await trust.release(gone);
  const report: TrustReport = { quarantined: [], released: [], pinned: 0 };
  const peers = { medianDescriptionLength: medianDescriptionLength(rows) };
  for (const row of rows) {
    const content = pinContent(row);
    const hash = pinHash(content);
    let pin = pins.get(row.key);
    if (pin && pin.pinHash !== hash && !options.pin) {
      await trust.deletePins([row.key]); // pinning off: a pin the content left is no approval
      pin = undefined;
    }
    const accepted = pin?.pinHash === hash;
    const findings = accepted ? [] : scanTool(row, peers);
    const was = held.get(row.key);
    const hold = async (kind: QuarantineKind, reason: string, kept: readonly StoredFinding[] = findings) => {
      const since = was?.kind === kind ? was.since : now;
      await trust.putQuarantine({ key: row.key, serverId, kind, reason, findings: [...kept], since });
      if (!was) report.quarantined.push(row.key);
    };
    if (pin && !accepted) await hold('drift', DRIFT_REASON);
    else if (findings.length > 0) await hold('flagged', flaggedReason(findings));
    else if (was?.kind === 'flagged' && !accepted)
      await hold('flagged', was.reason, was.findings); // clean now
    else {
      if (was) {
        await trust.release([row.key]);
        report.released.push(row.key);
      }
      if (!pin && options.pin) {
        await trust.upsertPin({ key: row.key, serverId, pinHash: hash, pinnedAt: now, content });
        report.pinned++;
      }
    }
  }
  return report;
}

function flaggedReason(findings: readonly ScanFinding[]): string {
  const rules = [...new Set(findings.map((f) => f.rule))];
  return `flagged by the poisoning scan: ${rules.join(', ')}`;
}

/** Quarantined tools that are in the catalog (entries of servers since removed are left out). */
async function liveQuarantine(store: Repositories): Promise<{ entry: QuarantineRow; tool: ToolRow }[]> {
  const entries = await store.trust.listQuarantine();
  const tools = await Promise.all(entries.map((entry) => store.tools.get(entry.key)));
  return entries.flatMap((entry, i) => {
    const tool = tools[i];
    return tool ? [{ entry, tool }] : [];
  });
}

/** Keys of quarantined tools, with why: what the visibility policy hides. */
export async function quarantinedKeys(store: Repositories): Promise<Map<string, string>> {
  return new Map((await liveQuarantine(store)).map(({ entry }) => [entry.key, entry.reason]));
}

/** Every quarantined tool with its reason, findings and, for a drift, the diff; oldest first. */
export async function describeQuarantine(store: Repositories): Promise<QuarantineEntry[]> {
  const live = await liveQuarantine(store);
  const pins = await Promise.all(live.map(({ entry }) => store.trust.getPin(entry.key)));
  return live.map(({ entry, tool }, i) => {
    const out: QuarantineEntry = {
      key: entry.key,
      server: entry.serverId,
      kind: entry.kind,
      reason: entry.reason,
      since: new Date(entry.since).toISOString(),
      findings: entry.findings as ScanFinding[], // written by applyTrust from scanTool
    };
    const pin = pins[i];
    const current = pinContent(tool);
    if (pin && pin.content !== current) {
      const approved = `approved ${new Date(pin.pinnedAt).toISOString()}`;
      out.diff = lineDiff(readable(pin.content), readable(current), [approved, 'current']);
    }
    return out;
  });
}

/** Released: what `approveTool` did. */
export interface ApprovedTool {
  key: string;
  kind: QuarantineKind;
  /** Hash the tool is now pinned to. */
  pinHash: string;
}

/**
 * Approves a quarantined tool: releases it and pins its current content (also when its server
 * does not pin: the pin records what was approved, so the same flagged text is not held again).
 */
export async function approveTool(
  store: Store,
  key: string,
  now: number = Date.now(),
): Promise<ApprovedTool> {
  return store.transaction(async (tx) => {
    const entry = await tx.trust.getQuarantine(key);
    const tool = entry && (await tx.tools.get(key));
    if (!entry || !tool) throw await notQuarantined(tx, key);
    const content = pinContent(tool);
    const hash = pinHash(content);
    await tx.trust.upsertPin({ key, serverId: entry.serverId, pinHash: hash, pinnedAt: now, content });
    await tx.trust.release([key]);
    return { key, kind: entry.kind, pinHash: hash };
  });
}

async function notQuarantined(store: Repositories, key: string): Promise<CarteError> {
  const keys = [...(await quarantinedKeys(store)).keys()];
  const base = `tool ${JSON.stringify(key)} is not quarantined`;
  const quote = (ks: string[]) => ks.map((k) => JSON.stringify(k)).join(', ');
  let hint: string;
  if (keys.length === 0) hint = 'no tool is';
  else if (keys.length <= LISTED_KEYS) hint = `quarantined: ${quote(keys)}`;
  else {
    const close = closestKeys(key, keys);
    hint = close.length ? `did you mean ${quote(close)}?` : `${keys.length} tools are quarantined`;
  }
  return new CarteError('bad_input', `${base}; ${hint}`, { details: { key, quarantined: keys } });
}

/** Pinned content as lines a person reads (and a terminal prints safely). */
function readable(content: string): string {
  const c = JSON.parse(content) as Record<string, unknown>;
  const lines = [`name: ${String(c.name)}`];
  const block = (label: string, text: string) =>
    lines.push(`${label}:`, ...text.split('\n').map((l) => `  ${l}`));
  if (typeof c.description === 'string') block('description', c.description);
  if (c.inputSchema !== null) block('inputSchema', JSON.stringify(c.inputSchema, null, 2));
  if (c.annotations !== null) block('annotations', JSON.stringify(c.annotations, null, 2));
  return lines.map(escapeUnsafe).join('\n');
}

/** JSON with object keys sorted at every level, so equal content always hashes the same. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
