import { describe, expect, it } from 'vitest';
import type { InstallRecord } from '../../../config/index.js';
import { clientFindings } from './doctor-clients.js';

const FILE = '/h/.cursor/mcp.json';
const wanted = { command: '/usr/bin/node', args: ['--max-semi-space-size=4', '/app/bin/carte.js', 'serve'] };
const record: InstallRecord = {
  version: 1,
  client: 'cursor',
  file: FILE,
  backup: `${FILE}.carte-backup`,
  installedDigest: '',
  carteConfig: '/h/.config/carte/carte.yaml',
  added: [],
  same: [],
};
const fileWith = (entry: unknown) => JSON.stringify({ mcpServers: { other: {}, carte: entry } });
const present = new Set(['/usr/bin/node', '/app/bin/carte.js', '/old/node']);

function finding(text: string | undefined) {
  return clientFindings([{ record, text }], wanted, (p) => present.has(p))[0]!;
}

describe('clientFindings', () => {
  it('passes an entry that starts this Carte, whatever --config and --data-dir it was given', () => {
    const text = fileWith({ ...wanted, args: [...wanted.args, '--data-dir', '/srv/carte'] });
    expect(finding(text)).toEqual({
      check: 'client cursor',
      ok: true,
      detail: `its carte entry in ${FILE} starts this Carte`,
    });
  });

  it('warns of an entry from before the node flags, or another Node, and names --refresh', () => {
    for (const entry of [
      { command: '/usr/bin/node', args: ['/app/bin/carte.js', 'serve'] },
      { ...wanted, command: '/old/node' },
    ]) {
      const f = finding(fileWith(entry));
      expect(f.ok).toBe(true);
      expect(f.detail).toMatch(
        /^warning: its carte entry in \S+ starts Carte otherwise \(.+\); `carte install --client cursor --refresh` rewrites it$/,
      );
    }
  });

  it('fails an entry whose Node or bin/carte.js is gone, with the fix', () => {
    const f = finding(fileWith({ command: '/gone/node', args: ['/gone/bin/carte.js', 'serve'] }));
    expect(f).toMatchObject({
      ok: false,
      detail: `its carte entry in ${FILE} cannot start: /gone/node and /gone/bin/carte.js are gone`,
      fix: 'run `carte install --client cursor --refresh` to point it at this Carte',
    });
  });

  it('warns when the entry or the whole file is gone, and fails a file that does not parse', () => {
    expect(finding(JSON.stringify({ mcpServers: {} })).detail).toMatch(/has no "carte" entry any more/);
    expect(finding(undefined).detail).toBe(
      `warning: ${FILE} is gone (the file as it was before install: ${FILE}.carte-backup)`,
    );
    expect(finding('{"mcpServers": ').ok).toBe(false);
  });
});
