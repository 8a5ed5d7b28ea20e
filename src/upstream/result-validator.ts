// The client SDK checks every result against its era's schema, but first probes that the method
// has a schema by validating `undefined`, which builds and formats a zod error on every request:
// a third of the SDK's client-side cost of a proxied call (docs/history/benchmarks-history.md,
// "Where the time goes: a proxied call"). This is the same check with the probe done once per client.
import type { Client, StandardSchemaV1 } from '@modelcontextprotocol/client';

import { wireCodec } from './plain/wire-codec.js';

/**
 * `method`'s result schema in `client`'s negotiated era, as a Standard Schema for
 * `client.request(req, schema, options)`; undefined when the era has none (or the SDK changed
 * shape), and the caller lets the SDK choose as before.
 */
export function resultSchema(client: Client, method: string): StandardSchemaV1 | undefined {
  const codec = wireCodec(client);
  if (codec === undefined) return undefined;
  const probe = codec.validateResult(method, undefined);
  if (!probe.ok && probe.reason === 'not-in-era') return undefined;
  return {
    '~standard': {
      version: 1,
      vendor: 'carte',
      validate(value: unknown) {
        const outcome = codec.validateResult(method, value);
        if (outcome.ok) return { value: outcome.value };
        // The SDK's own wording, so a bad result reads the same as before.
        const message =
          outcome.reason === 'invalid' ? (outcome.message ?? 'invalid') : `not-in-era: ${method}`;
        return { issues: [{ message }] };
      },
    },
  };
}
