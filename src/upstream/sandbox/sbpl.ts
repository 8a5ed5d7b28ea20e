// macOS: the sandbox-exec profile (SBPL, Seatbelt's Scheme-like language) for one stdio server,
// made from the same SandboxSpec as bubblewrap's arguments. Seatbelt has no namespaces: the
// profile allows by default and then denies; for one operation the LAST matching rule wins,
// so the order of the sections below is the policy. Not run here (Linux CI): the text is
// unit-tested, and the probe compiles it once on a Mac (probe.ts). See docs/sandbox.md.
import { dirname } from 'node:path';
import type { SandboxSpec } from './types.js';

/** Where macOS keeps sandbox-exec (a system program: never looked up on PATH). */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** What one launch adds to the spec: its private temp dir and the allowlist proxy's port. */
export interface DarwinPlaces {
  /** Made for this launch; TMPDIR points here, and it is writable. */
  tmpDir: string;
  /** Carte's allowlist proxy on 127.0.0.1 (a network grant), or null for no network. */
  proxyPort: number | null;
  /** Loopback ports granted as they are (`localhost:5173`). */
  loopbackPorts: readonly number[];
}

/** Device files any program writes to (its output thrown away, its terminal). */
const DEVICES = [
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(literal "/dev/dtracehelper")',
  '(literal "/dev/tty")',
  '(regex #"^/dev/ttys[0-9]+$")',
  '(regex #"^/dev/fd/[0-9]+$")',
];

/** The SBPL profile for a server: see the comments in the text it returns. */
export function sbplProfile(spec: SandboxSpec, places: DarwinPlaces): string {
  const denied = unique(spec.denyRead.map(darwinPath));
  const writable = unique(
    [places.tmpDir, ...(spec.stateDir ? [spec.stateDir] : []), ...spec.allowWrite].map(darwinPath),
  );
  const reopened = writable.filter((w) => denied.some((d) => isInside(w, d)));
  const hiddenAgain = denied.filter((d) => reopened.some((w) => isInside(d, w)));
  const tmp = darwinPath(places.tmpDir);
  return [
    '(version 1)',
    "; Carte's sandbox for one stdio server (docs/sandbox.md). The last matching rule wins.",
    '(allow default)',
    '',
    '; Processes: it sees and signals only its own sandbox, never Carte nor your other programs,',
    '; and opens no application (LaunchServices, Apple Events run outside any sandbox).',
    '(deny process-info*)',
    '(allow process-info* (target same-sandbox))',
    '(deny signal)',
    '(allow signal (target same-sandbox))',
    '(deny lsopen)',
    '(deny appleevent-send)',
    '',
    '; Files: it writes only to its private temp dir, its state dir and allowWrite.',
    '(deny file-write*)',
    rule('allow file-write*', [...writable.map(subpath), ...DEVICES]),
    '',
    '; The denied paths are neither read nor written (keys, browser profiles, Carte).',
    rule('deny file-read* file-write*', denied.map(subpath)),
    ...(reopened.length
      ? [
          '; Its own writable places inside a denied one (its state dir in the data dir) come back...',
          rule('allow file-read* file-write*', reopened.map(subpath)),
        ]
      : []),
    ...(hiddenAgain.length
      ? [
          '; ...and what is denied below them stays hidden.',
          rule('deny file-read* file-write*', hiddenAgain.map(subpath)),
        ]
      : []),
    "; A denied path's parents cannot be moved (a renamed parent would carry it out of these rules).",
    rule('deny file-write-unlink', unique(denied.flatMap(ancestors)).map(literal)),
    '',
    "; Network: none but Carte's allowlist proxy and the granted loopback ports; unix sockets",
    '; only inside its temp dir (not the docker socket, not your agents). No DNS: the proxy resolves.',
    '(deny network*)',
    rule(
      'allow network-outbound',
      [...(places.proxyPort === null ? [] : [places.proxyPort]), ...places.loopbackPorts].map(
        (port) => `(remote ip "localhost:${port}")`,
      ),
    ),
    `(allow network-bind network-inbound (local unix-socket (subpath ${str(tmp)})))`,
    `(allow network-outbound (remote unix-socket (subpath ${str(tmp)})))`,
    '',
  ]
    .filter((line) => line !== null)
    .join('\n');
}

/**
 * The path Seatbelt matches: it sees resolved paths, and /tmp, /var and /etc are links into
 * /private on macOS (launch.ts resolves other links with realpath first).
 */
export function darwinPath(path: string): string {
  return /^\/(tmp|var|etc)(\/|$)/.test(path) ? `/private${path}` : path;
}

/** An SBPL string literal: backslash and double quote escaped; control characters refused. */
function str(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(text))
    throw new Error(`a sandbox path holds a control character: ${JSON.stringify(text)}`);
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

const subpath = (p: string): string => `(subpath ${str(p)})`;
const literal = (p: string): string => `(literal ${str(p)})`;

/** One rule over its filters, one filter a line; a rule with none is left out (it would match all). */
function rule(head: string, filters: readonly string[]): string | null {
  return filters.length ? `(${head}\n${filters.map((f) => `  ${f}`).join('\n')})` : null;
}

/** The directories above a path, up to but not including the root. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let p = dirname(path); p !== '/' && p !== '.'; p = dirname(p)) out.push(p);
  return out;
}

function isInside(path: string, dir: string): boolean {
  return path.startsWith(`${dir}/`);
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
