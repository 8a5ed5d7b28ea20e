// Registered servers run sandboxed (issue 42): a proposal may ask for network hosts; only a
// person's approval grants them, and the grant is written into the server's config.
import { isRecord, type Problems, type Segment } from '../problems/problems.js';
import { NETWORK_ENTRY } from '../schema/schema-sandbox.js';
import type { SandboxInput } from '../schema/schema-sandbox.js';
import { matchesAllow, type AllowList, type AllowMatch } from './proposal-allow.js';

/** The hosts a proposal asks to reach (`sandbox: {network: [...]}`), as written; empty when none. */
export function requestedNetwork(server: Record<string, unknown>): string[] {
  const sandbox = server.sandbox;
  if (!isRecord(sandbox) || !Array.isArray(sandbox.network)) return [];
  return sandbox.network.filter((h): h is string => typeof h === 'string');
}

/** A proposal may set `sandbox: true` or `sandbox: {network: [...]}`: a request, never an opt-out. */
export function checkProposedSandbox(server: Record<string, unknown>, at: Segment[], out: Problems): void {
  const sandbox = server.sandbox;
  if (sandbox === undefined || sandbox === true) return;
  if (typeof server.command !== 'string')
    out.error([...at, 'sandbox'], 'applies to stdio servers only (with "command")');
  else if (!isRecord(sandbox))
    out.error([...at, 'sandbox'], 'cannot be proposed as false: registered servers always run sandboxed');
  else
    for (const key of Object.keys(sandbox).filter((k) => k !== 'network'))
      out.error(
        [...at, 'sandbox', key],
        'cannot be proposed; only sandbox.network (the hosts it asks to reach) may be',
      );
}

/** Why a grant entry is not a host, host:port or *.example.com, or undefined when all are. */
export function badGrant(grant: readonly string[]): string | undefined {
  const bad = grant.find((h) => !NETWORK_ENTRY.test(h));
  return bad === undefined
    ? undefined
    : `network grant ${JSON.stringify(bad)} is not a host, host:port or *.example.com`;
}

/**
 * The server as it is written to the config on approval: a stdio server gets
 * `sandbox: {network: <grant>}`, with sandbox.default's other settings when it has some (an own
 * object replaces the default whole); a remote one is written as proposed.
 */
export function withGrant(
  server: Record<string, unknown>,
  grant: readonly string[],
  sandboxDefault: SandboxInput,
): Record<string, unknown> {
  const { sandbox: _asked, ...rest } = server;
  if (typeof server.command !== 'string') return rest;
  const base = typeof sandboxDefault === 'object' ? withoutEmpty(sandboxDefault) : {};
  return { ...rest, sandbox: { ...base, network: [...grant] } };
}

function withoutEmpty(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o).filter(([k, v]) => k !== 'network' && !(Array.isArray(v) && v.length === 0)),
  );
}

/**
 * The allowlist entry that approves a proposal at once, or undefined. One that asks for network
 * hosts always waits: only a person grants hosts.
 */
export function allowedAtOnce(server: Record<string, unknown>, allow: AllowList): AllowMatch | undefined {
  return requestedNetwork(server).length > 0 ? undefined : matchesAllow(server, allow);
}
