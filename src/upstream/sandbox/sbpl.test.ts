import { describe, expect, it } from 'vitest';
import { darwinPath, sbplProfile, type DarwinPlaces } from './sbpl.js';
import type { SandboxSpec } from './types.js';

const SPEC: SandboxSpec = {
  network: ['registry.npmjs.org', 'localhost:5173'],
  allowWrite: ['/Users/u/notes'],
  denyRead: ['/Users/u/.ssh', '/Users/u/Library/Application Support/carte'],
  stateDir: '/Users/u/Library/Application Support/carte/servers/x',
};
const PLACES: DarwinPlaces = {
  tmpDir: '/var/folders/ab/T/carte-tmp-1',
  proxyPort: 50123,
  loopbackPorts: [5173],
};

/** The lines between a rule's head and its closing parenthesis. */
function filtersOf(profile: string, head: string, nth = 0): string[] {
  const blocks = profile.split(`(${head}\n`).slice(1);
  return (blocks[nth] ?? '')
    .split(')\n')[0]!
    .split('\n')
    .map((l) => `${l.trim()})`.replace(/\)\)$/, ')'));
}

describe('sbplProfile', () => {
  it('writes the whole profile for a server with a grant, a denied data dir and its state dir inside', () => {
    expect(sbplProfile(SPEC, PLACES)).toBe(`(version 1)
; Carte's sandbox for one stdio server (docs/sandbox.md). The last matching rule wins.
(allow default)

; Processes: it sees and signals only its own sandbox, never Carte nor your other programs,
; and opens no application (LaunchServices, Apple Events run outside any sandbox).
(deny process-info*)
(allow process-info* (target same-sandbox))
(deny signal)
(allow signal (target same-sandbox))
(deny lsopen)
(deny appleevent-send)

; Files: it writes only to its private temp dir, its state dir and allowWrite.
(deny file-write*)
(allow file-write*
  (subpath "/private/var/folders/ab/T/carte-tmp-1")
  (subpath "/Users/u/Library/Application Support/carte/servers/x")
  (subpath "/Users/u/notes")
  (literal "/dev/null")
  (literal "/dev/zero")
  (literal "/dev/dtracehelper")
  (literal "/dev/tty")
  (regex #"^/dev/ttys[0-9]+$")
  (regex #"^/dev/fd/[0-9]+$"))

; The denied paths are neither read nor written (keys, browser profiles, Carte).
(deny file-read* file-write*
  (subpath "/Users/u/.ssh")
  (subpath "/Users/u/Library/Application Support/carte"))
; Its own writable places inside a denied one (its state dir in the data dir) come back...
(allow file-read* file-write*
  (subpath "/Users/u/Library/Application Support/carte/servers/x"))
; A denied path's parents cannot be moved (a renamed parent would carry it out of these rules).
(deny file-write-unlink
  (literal "/Users/u")
  (literal "/Users")
  (literal "/Users/u/Library/Application Support")
  (literal "/Users/u/Library"))

; Network: none but Carte's allowlist proxy and the granted loopback ports; unix sockets
; only inside its temp dir (not the docker socket, not your agents). No DNS: the proxy resolves.
(deny network*)
(allow network-outbound
  (remote ip "localhost:50123")
  (remote ip "localhost:5173"))
(allow network-bind network-inbound (local unix-socket (subpath "/private/var/folders/ab/T/carte-tmp-1")))
(allow network-outbound (remote unix-socket (subpath "/private/var/folders/ab/T/carte-tmp-1")))
`);
  });

  it('allows no network rule at all without a grant (an empty allow would match everything)', () => {
    const profile = sbplProfile({ ...SPEC, network: [] }, { ...PLACES, proxyPort: null, loopbackPorts: [] });
    expect(profile).toContain('(deny network*)\n(allow network-bind network-inbound (local unix-socket');
    expect(profile).not.toMatch(/remote ip/);
  });

  it('hides a denied path below a writable one after it, and again below a reopened one', () => {
    const profile = sbplProfile(
      {
        network: [],
        allowWrite: ['/Users/u'],
        denyRead: ['/Users/u/.ssh', '/data', '/data/servers/x/secret'],
        stateDir: '/data/servers/x',
      },
      { ...PLACES, proxyPort: null, loopbackPorts: [] },
    );
    const at = (text: string) => profile.indexOf(text);
    // allow write ~ ... then deny ~/.ssh: the deny is later, so it wins.
    expect(at('(deny file-read* file-write*\n  (subpath "/Users/u/.ssh")')).toBeGreaterThan(
      at('  (subpath "/Users/u")\n'),
    );
    expect(filtersOf(profile, 'allow file-read* file-write*')).toEqual(['(subpath "/data/servers/x")']);
    expect(filtersOf(profile, 'deny file-read* file-write*', 1)).toEqual([
      '(subpath "/data/servers/x/secret")',
    ]);
  });

  it('escapes quotes and backslashes, and refuses a control character', () => {
    const odd = { network: [], allowWrite: ['/Users/u/a "b" \\c'], denyRead: [] };
    expect(sbplProfile(odd, PLACES)).toContain('(subpath "/Users/u/a \\"b\\" \\\\c")');
    expect(() => sbplProfile({ ...odd, allowWrite: ['/Users/u/a\nb'] }, PLACES)).toThrow(
      'a sandbox path holds a control character: "/Users/u/a\\nb"',
    );
  });

  it.each([
    ['/tmp/x', '/private/tmp/x'],
    ['/tmp', '/private/tmp'],
    ['/var/folders/T', '/private/var/folders/T'],
    ['/etc/hosts', '/private/etc/hosts'],
    ['/tmpfoo', '/tmpfoo'],
    ['/Users/u/tmp', '/Users/u/tmp'],
  ])('darwinPath(%s) is %s', (path, want) => {
    expect(darwinPath(path)).toBe(want);
  });
});
