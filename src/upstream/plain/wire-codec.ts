// The client SDK's wire codec (a protected method), which both plain calls (plain-calls.ts) and the
// result schema (result-validator.ts) check tools/call results with.
import type { Client } from '@modelcontextprotocol/client';

/** The part of the SDK's wire codec a result goes through: decode (era lift), then the era's schema. */
export interface CallCodec {
  decodeResult(method: string, raw: unknown): { kind: string; result?: unknown; error?: unknown };
  validateResult(
    method: string,
    raw: unknown,
  ): { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
}

/** The negotiated era's wire codec (a protected SDK method), or undefined if the SDK changed shape. */
export function wireCodec(client: Client): (CallCodec & { era?: unknown }) | undefined {
  const wire = (client as unknown as { _wireCodec?: () => CallCodec & { era?: unknown } })._wireCodec;
  return typeof wire === 'function' ? wire.call(client) : undefined;
}
