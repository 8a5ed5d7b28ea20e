// A request rate over HTTP (docs/security.md, "Rate limits"): `http.rate` for every project, a
// project's own `projects.<id>.rate` in its place.
import { z } from 'zod';

/** "600/m", "600/min" or "10/s" (600 a minute); gateway/access/rate-limits.ts parses it. */
export const RateSchema = z
  .string()
  .regex(/^[1-9]\d{0,8}\/(s|m|min)$/, {
    message: 'expected requests per minute or second, like "600/m" or "10/s"',
  });
