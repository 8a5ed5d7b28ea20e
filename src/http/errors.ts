// The HTTP face's one error mapping (STYLE.md, "Errors are data until the edge"): a CarteError
// answers with its status from ERROR_CODES; anything else is a bug, answered 500 with a generic
// message while the details go to the operator's log only.
import type { Context } from 'hono';
import { CarteError, ERROR_CODES, type ErrorCode } from '../errors.js';

/** The JSON body of every error the HTTP face sends. */
export interface ErrorBody {
  error: { code: ErrorCode | 'not_found'; message: string };
}

/** Where details of unexpected errors go (the operator's log); never the client. */
export type ReportBug = (err: unknown) => void;

/** A JSON error response with the given status (and extra headers). */
export function errorResponse(
  status: number,
  code: ErrorBody['error']['code'],
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body: ErrorBody = { error: { code, message } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * Maps anything thrown to the answer: a CarteError's status and message; otherwise 500 with a
 * generic message (the error itself goes to `report`). A 401 carries the Bearer challenge.
 */
export function httpError(c: Context, err: unknown, report?: ReportBug): Response {
  return errorFor(c.req.url, err, report);
}

/** httpError for a request known by its URL (the node lane has no Hono context). */
export function errorFor(requestUrl: string, err: unknown, report?: ReportBug): Response {
  if (!(err instanceof CarteError)) {
    report?.(err);
    return errorResponse(500, 'internal', 'internal error; the details are in the server log');
  }
  const { http } = ERROR_CODES[err.code];
  if (err.code === 'internal') report?.(err);
  const headers = http === 401 ? { 'www-authenticate': bearerChallenge(requestUrl, true) } : undefined;
  return errorResponse(http, err.code, err.message, headers);
}

/** The URL of the protected-resource metadata (RFC 9728) on the origin a request came to. */
export function resourceMetadataUrl(requestUrl: string): string {
  return `${new URL(requestUrl).origin}/.well-known/oauth-protected-resource`;
}

/**
 * `WWW-Authenticate` for a 401 (MCP authorization spec, RFC 9728 section 5.1): where the metadata
 * is, and `invalid_token` (RFC 6750 section 3.1) when a token was sent but refused, with why.
 */
export function bearerChallenge(requestUrl: string, tokenSent: boolean, why?: string): string {
  const error = tokenSent ? ', error="invalid_token"' : '';
  const description = tokenSent && why !== undefined ? `, error_description="${descriptionText(why)}"` : '';
  return `Bearer resource_metadata="${resourceMetadataUrl(requestUrl)}"${error}${description}`;
}

/** RFC 6750 section 3: error_description is printable ASCII without `"` or `\`. */
function descriptionText(message: string): string {
  return message
    .replace(/"/g, "'")
    .replace(/[^\x20-\x7e]|\\/g, '?')
    .slice(0, 300);
}
