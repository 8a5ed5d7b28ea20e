import { cac } from 'cac';
import { describe, expect, it } from 'vitest';
import { keepNegativeValues, valueOptions } from './negative-values.js';

describe('keepNegativeValues', () => {
  const cli = cac('carte');
  cli.option('--data-dir <dir>', 'global, with a value');
  cli.command('search <...query>', '').option('--limit <n>', '').option('--json', '');
  cli.command('serve', '').option('-p, --port [port]', '');
  const options = valueOptions(cli);

  it('knows the spellings of the options that take a value, not the boolean ones', () => {
    expect([...options].sort()).toEqual(['--data-dir', '--limit', '--port', '-p']);
  });

  it.each([
    [
      ['search', 'x', '--limit', '-1'],
      ['search', 'x', '--limit=-1'],
    ],
    [
      ['serve', '-p', '-0.5'],
      ['serve', '-p=-0.5'],
    ],
    [
      ['serve', '--port', '-.5'],
      ['serve', '--port=-.5'],
    ],
    [
      ['audit', '--since', '-2h'],
      ['audit', '--since', '-2h'],
    ], // not an option here: left to the parser
    [
      ['search', '--json', '-1'],
      ['search', '--json', '-1'],
    ], // a flag takes no value
    [
      ['search', '--limit', '-x'],
      ['search', '--limit', '-x'],
    ], // not a number
    [
      ['search', '--limit', '5', '-1'],
      ['search', '--limit', '5', '-1'],
    ],
    [
      ['add', 'x', '--', 'node', '--limit', '-1'],
      ['add', 'x', '--', 'node', '--limit', '-1'],
    ],
    [
      ['search', '--limit'],
      ['search', '--limit'],
    ],
  ])('%j reads as %j', (argv, expected) => {
    expect(keepNegativeValues(argv, options)).toEqual(expected);
  });
});
