// The HTTP face's part of the config schema (docs/http.md): where `carte serve --http` listens,
// who may call it without a token, which browser origins may call it, and the legacy-session bounds.
import { z } from 'zod';
import { SERVER_ID_PATTERN } from './server-id-pattern.js';
import { RateSchema } from './schema-rate.js';

/** "https://carte.example.com" or "http://localhost:5173": a scheme, a host and maybe a port, nothing else. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}

export const HttpSchema = z
  .strictObject({
    port: z
      .int()
      .min(0)
      .max(65_535)
      .default(7777)
      .describe('TCP port of `carte serve --http`; 0 picks a free one. --port overrides it. Default 7777.'),
    host: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .describe(
        'Address to bind: 127.0.0.1 (default) reaches this machine only; 0.0.0.0 or a LAN address exposes Carte to the network. --host overrides it.',
      ),
    anonymousProject: z
      .string()
      .regex(SERVER_ID_PATTERN)
      .optional()
      .describe(
        'The project requests without a token act in, with the search scope only. No default: every request needs a bearer token. --anonymous-project overrides it.',
      ),
    allowedOrigins: z
      .array(
        z.string().refine(isOrigin, {
          message:
            'expected an origin: a scheme, a host and an optional port, like "https://carte.example.com"',
        }),
      )
      .default([])
      .describe(
        "Browser origins, besides the pages Carte serves itself, that may call it (a reverse proxy's public URL, a local MCP Inspector). Requests from any other Origin get 403.",
      ),
    maxSessions: z
      .int()
      .min(1)
      .max(100_000)
      .default(1000)
      .describe('Legacy (2025-11-25) MCP sessions open at once; a new one past it gets 503. Default 1000.'),
    trustProxy: z
      .boolean()
      .default(false)
      .describe(
        "Behind a reverse proxy: take a client's address from the last X-Forwarded-For entry (the proxy's), for the failed sign-in lockout. Default false: the connection's address.",
      ),
    rate: RateSchema.optional().describe(
      'Requests per minute (or second) each token may make over HTTP, e.g. "600/m", in every project without a rate of its own (the implicit project "default" included); a token created with --rate keeps its own. No default: no limit.',
    ),
    sessionIdleMinutes: z
      .number()
      .positive()
      .max(1440)
      .default(30)
      .describe('A legacy MCP session with no request for this many minutes is closed. Default 30.'),
  })
  .describe('`carte serve --http`: the HTTP face (MCP endpoint, REST API, web menu, metrics).');
