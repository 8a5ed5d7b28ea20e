// DNS rebinding and cross-site protection (MCP transports spec, "Security warning"; conformance
// scenario dns-rebinding-protection). A rebinding attack needs a browser, and a browser always
// sends Host and, on cross-origin or non-GET requests, Origin: so a request without Origin (a
// non-browser client) passes, and one whose Origin is not the page Carte itself served is refused.
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './errors.js';
import type { HeaderSource } from './shared/types.js';

export interface GuardOptions {
  /** The address the server is bound to (default 127.0.0.1). */
  host?: string;
  /** Extra origins a browser page may call from, e.g. "https://carte.example.com". */
  allowedOrigins?: readonly string[];
}

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Whether a bind address or hostname only reaches this machine. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK_NAMES.has(h) || h === '::1' || h.startsWith('127.') || h.endsWith('.localhost');
}

/** Middleware answering 403 when Host or Origin could come from a rebound or foreign page. */
export function originGuard(options: GuardOptions = {}): MiddlewareHandler {
  const check = requestChecker(options);
  return async (c, next) => {
    const refused = check(c.req.raw.headers);
    if (refused !== undefined) return errorResponse(403, 'denied', refused);
    await next();
  };
}

/** The check itself: undefined when the request may proceed, else why it may not. */
export function requestChecker(options: GuardOptions): (headers: HeaderSource) => string | undefined {
  const bound = (options.host ?? '127.0.0.1').toLowerCase();
  const loopback = isLoopback(bound);
  const origins = new Set((options.allowedOrigins ?? []).map(normalizeOrigin));
  const extraHosts = new Set([...origins].map((o) => hostnameOf(new URL(o).host)));
  // Names whose same-origin pages Carte itself serves; a DNS name other than these could be rebound.
  const trusted = (name: string) =>
    LOOPBACK_NAMES.has(name) || extraHosts.has(name) || (!loopback && (name === bound || isIpLiteral(name)));
  return (headers) => {
    const host = headers.get('host');
    const hostname = host === null ? undefined : hostnameOf(host);
    if (loopback && hostname !== undefined && !LOOPBACK_NAMES.has(hostname) && !extraHosts.has(hostname))
      return `Host ${JSON.stringify(host)} is not allowed: Carte listens on ${bound} and answers localhost, 127.0.0.1 and [::1] only (DNS rebinding protection); list other origins in http.allowedOrigins`;
    const origin = headers.get('origin');
    if (origin === null) return undefined;
    const normalized = normalizeOrigin(origin);
    if (origins.has(normalized)) return undefined;
    if (
      host !== null &&
      hostname !== undefined &&
      normalized === `http://${host.toLowerCase()}` &&
      trusted(hostname)
    )
      return undefined;
    return `Origin ${JSON.stringify(origin.slice(0, 100))} is not allowed: only pages served by this Carte and the origins in http.allowedOrigins may call it`;
  };
}

/** "http://Example.com:80/" as a browser sends it: "http://example.com". Unparseable stays as is. */
function normalizeOrigin(origin: string): string {
  try {
    const o = new URL(origin).origin;
    return o === 'null' ? origin : o.toLowerCase();
  } catch {
    return origin;
  }
}

/** The hostname of a Host header value ("[::1]:7777" gives "[::1]"), lower-cased. */
function hostnameOf(host: string): string {
  const h = host.toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

function isIpLiteral(name: string): boolean {
  return IPV4.test(name) || name.startsWith('[');
}
