import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APERTIUM_BIDIX,
  APERTIUM_DIR,
  apertiumEntries,
  apertiumTable,
  lazyFreedictTranslator,
  prepareGlossFiles,
  transducerPaths,
  useGlossFiles,
  writeApertiumGlossFile,
} from '../index.js';
import { dataFile, hasSystem } from '../../../test/system-needs.js';

/**
 * An invented transducer in `lt-print`'s AT&T layout (no Apertium data): each pair is one chain of
 * states from 0, symbol by symbol (tags are one symbol, ε pads the shorter side).
 */
function att(pairs: [string[], string[]][], from = 0): string {
  const lines: string[] = [];
  let next = from + 1;
  for (const [input, output] of pairs) {
    let state = from;
    for (let i = 0; i < Math.max(input.length, output.length); i++, next++) {
      lines.push(`${state}\t${next}\t${input[i] ?? 'ε'}\t${output[i] ?? 'ε'}\t0.000000\t`);
      state = next;
    }
    lines.push(`${state}\t0.000000`);
  }
  return lines.join('\n') + '\n';
}
const chars = (word: string, ...tags: string[]): string[] => [...word, ...tags];
/** A small section whose loop spells endless numbers, as the bidix's number pattern does. */
const LOOP = '0\t1\t7\t7\t0.000000\t\n1\t1\t7\t7\t0.000000\t\n1\t0.000000\n';
const BIDIX = [
  att([
    [chars('zarpo', '<n>', '<m>'), chars('widget', '<n>')],
    [chars('zarpo', '<n>', '<m>'), chars('gadget', '<n>')],
    [chars('zarpo', '<adj>'), chars('shiny', '<adj>')],
    [chars('Zumbar', '<vblex>'), chars('look#', ' ', 'up', '<vblex>')],
    [chars('Pedro', '<np>', '<ant>'), chars('Peter', '<np>', '<ant>')],
  ]),
  LOOP,
].join('--\n');

describe('transducerPaths', () => {
  it('spells every path of the largest section, epsilons dropped, loops not entered again', () => {
    expect(transducerPaths(BIDIX)).toContainEqual(['zarpo<n><m>', 'gadget<n>']);
    expect(transducerPaths(BIDIX)).toHaveLength(5);
    expect(transducerPaths(LOOP)).toEqual([['7', '7']]);
  });
});

describe('apertiumTable', () => {
  it('groups the translations of a lower-cased lemma by part of speech, proper nouns left out', () => {
    expect([...apertiumTable(BIDIX).glosses]).toEqual([
      ['zarpo', 'widget, gadget | shiny'],
      ['zumbar', 'look up'],
    ]);
  });
});

describe('apertiumEntries', () => {
  it('gives one FreeDict-like entry per part of speech', () => {
    expect(apertiumEntries('zarpo', 'widget, gadget | shiny')).toEqual([
      'zarpo\nwidget, gadget\n',
      'zarpo\nshiny\n',
    ]);
    expect(apertiumEntries('nada', undefined)).toEqual([]);
  });
});

describe('lazyFreedictTranslator with a second Spanish list', () => {
  const table = apertiumTable(BIDIX).glosses;
  const open = () => ({ lookup: (w: string) => apertiumEntries(w, table.get(w.toLowerCase())) });
  const spanish = { id: 'apertium(spa)', open };

  it('glosses Spanish with it, without FreeDict', () => {
    const t = lazyFreedictTranslator('/nonexistent', { spanish });
    expect(t.id).toBe('apertium(spa)');
    expect(t.gloss('zumbar el zarpo')).toBe('look up widget gadget shiny');
    expect(t.gloss('look up the widget')).toBe('');
  });

  it('glosses nothing more when the list fails to open', () => {
    const t = lazyFreedictTranslator('/nonexistent', {
      spanish: {
        id: 'apertium(spa)',
        open: () => {
          throw new Error('no lt-print');
        },
      },
    });
    expect(t.gloss('zumbar el zarpo')).toBe('');
  });
});

// The file is named by the installed package's version: skipped without apertium-eng-spa.
const hasBidix = hasSystem(import.meta.url, dataFile(join(APERTIUM_DIR, APERTIUM_BIDIX), 'apertium-eng-spa'));

describe.skipIf(!hasBidix)('lazyFreedictTranslator and the Apertium gloss file', () => {
  it('names Apertium in its id only once the file is built, and glosses with it from then on', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'carte-apertium-id-'));
    useGlossFiles(cache);
    try {
      const t = lazyFreedictTranslator('/nonexistent');
      expect(t.id).toBe('none');
      expect(t.gloss('zumbar el zarpo')).toBe('');
      // The child job's second half, over the invented bidix, as prepareGlossFiles runs it; the
      // other dictionaries' builders do nothing here.
      await prepareGlossFiles({
        run: (module, _, dir) => {
          if (module.endsWith('/apertium-job.js')) writeApertiumGlossFile(dir, BIDIX);
          return Promise.resolve();
        },
      });
      expect(t.id).toBe('apertium(spa)');
      expect(t.gloss('zumbar el zarpo')).toBe('look up widget gadget shiny');
    } finally {
      useGlossFiles(undefined);
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
