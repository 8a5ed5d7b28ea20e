// A request rate over HTTP (docs/security.md, "Rate limits"): `http.rate` for every project, a
// project's own `projects.<id>.rate` in its place.
import { z } from 'zod';

/** "600/m", "600/min" or "10/s" (600 a minute); gateway/access/rate-limits.ts parses it. */
const PerMinute = z.string().regex(/^[1-9]\d{0,8}\/(s|m|min)$/, {
  message: 'expected requests per minute or second, like "600/m" or "10/s"',
});

/** A rate per token ("600/m"), or per token and for a project's tokens together. */
export const RateSchema = z.union([
  PerMinute,
  z
    .strictObject({
      perToken: PerMinute.optional().describe('Each token apart, as the short form "600/m" says.'),
      total: PerMinute.optional().describe(
        "The project's tokens (and other callers) together, tokens with a rate of their own included.",
      ),
    })
    .refine((r) => r.perToken !== undefined || r.total !== undefined, {
      message: 'give perToken, total or both',
    }),
], { error: 'expected a rate such as "600/m", or {perToken, total}' });
