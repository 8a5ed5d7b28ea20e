// Network grants (`host`, `host:port`, `*.example.com`): which destinations a sandboxed server may reach.

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** A grant without a port allows the web's ports only. */
const DEFAULT_PORTS = [80, 443];

interface Grant {
  host: string;
  wildcard: boolean;
  port: number | null;
}

function parseGrant(entry: string): Grant {
  const m = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase())!;
  const host = m[1]!;
  return {
    host: host.startsWith('*.') ? host.slice(1) : host,
    wildcard: host.startsWith('*.'),
    port: m[2] === undefined ? null : Number(m[2]),
  };
}

/** Whether `host:port` is granted; `*.example.com` covers subdomains, not example.com itself. */
export function isGranted(grants: readonly string[], host: string, port: number): boolean {
  const h = sameLoopback(host.toLowerCase());
  return grants.map(parseGrant).some((g) => {
    const hostOk = g.wildcard ? h.endsWith(g.host) && h.length > g.host.length : h === sameLoopback(g.host);
    return hostOk && (g.port === null ? DEFAULT_PORTS.includes(port) : g.port === port);
  });
}

/** The loopback ports granted (`localhost:5173`): forwarded into the sandbox as they are. */
export function loopbackPorts(grants: readonly string[]): number[] {
  return grants
    .map(parseGrant)
    .filter((g) => LOOPBACK_NAMES.has(g.host) && g.port !== null)
    .map((g) => g.port!);
}

/** localhost, 127.0.0.1 and ::1 are one host for grants (a client may dial any of them). */
function sameLoopback(host: string): string {
  return LOOPBACK_NAMES.has(host) ? 'localhost' : host.replace(/^\[|\]$/g, '');
}

/** Whether a name is a loopback name (a grant must say it outright to reach this machine). */
export function isLoopbackName(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase());
}
