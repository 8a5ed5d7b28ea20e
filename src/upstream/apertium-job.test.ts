import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APERTIUM_BIDIX, APERTIUM_DIR } from '../search/index.js';
import { dataFile, hasSystem, program } from '../../test/system-needs.js';
import { buildApertiumGlossFile } from './apertium-job.js';

// Spawns lt-print on the installed bidix: skipped, loudly, without apertium-eng-spa and lttoolbox-dev
// (.ci/run installs both).
const installed = hasSystem(
  import.meta.url,
  dataFile(join(APERTIUM_DIR, APERTIUM_BIDIX), 'apertium-eng-spa'),
  program('lt-print', 'lttoolbox-dev'),
);

describe.skipIf(!installed)('buildApertiumGlossFile (slow)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-apertium-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one sorted `lemma TAB glosses` file from the installed bidix', () => {
    buildApertiumGlossFile(dir);
    const [name, ...others] = readdirSync(dir);
    expect(others).toEqual([]);
    expect(name).toMatch(/^apertium-spa-eng@\d+-\d+\.rule1\.v1\.gloss$/);
    const lines = readFileSync(join(dir, name!), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(10_000);
    expect(lines.every((l) => /^[^\t]+\t[^\t]+$/.test(l))).toBe(true);
    const keys = lines.map((l) => l.slice(0, l.indexOf('\t')));
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});
