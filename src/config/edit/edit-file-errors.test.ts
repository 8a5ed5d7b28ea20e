import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CarteError } from '../../errors.js';
import { addServerToFile, removeServerFromFile } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'carte-edit-'));
let n = 0;
function file(name: string, text?: string): string {
  const path = join(dir, `${n++}-${name}`);
  if (text !== undefined) writeFileSync(path, text);
  return path;
}
const read = (path: string) => readFileSync(path, 'utf8');

const YAML = `# My servers
servers:
  # the first one
  alpha:
    command: a # inline
  zeta:
    url: https://z/mcp
search:
  strategy: lexical
`;

describe('edit errors', () => {
  const yamlFile = () => file('carte.yaml', YAML);
  const claudeFile = () => file('c.json', '{"mcpServers": {"GitHub": {"command": "x"}}}');
  const cases: [string, () => string, (path: string) => void, string, string][] = [
    [
      'an existing id',
      yamlFile,
      (p) => addServerToFile(p, 'alpha', { command: 'x' }),
      'bad_input',
      'server "alpha" already exists in "$PATH"',
    ],
    [
      'an id taken by a foreign spelling',
      claudeFile,
      (p) => addServerToFile(p, 'github', { command: 'x' }),
      'bad_input',
      'server "github" already exists (as "GitHub") in "$PATH"',
    ],
    [
      'an invalid id',
      yamlFile,
      (p) => addServerToFile(p, 'Bad Id', { command: 'x' }),
      'bad_input',
      'invalid server id "Bad Id"; use lower-case letters, digits, "-" and "_", starting with a letter or digit, e.g. "bad-id"',
    ],
    [
      'both command and url',
      yamlFile,
      (p) => addServerToFile(p, 'b', { command: 'x', url: 'https://a' }),
      'bad_input',
      'a server needs exactly one of "command" (stdio) or "url" (remote)',
    ],
    [
      'a bad field',
      yamlFile,
      (p) => addServerToFile(p, 'b', { command: 'x', args: 'a' } as never),
      'bad_input',
      'bad server: args: expected an array, got "a"',
    ],
    [
      'an unknown field',
      yamlFile,
      (p) => addServerToFile(p, 'b', { command: 'x', nope: '/' } as never),
      'bad_input',
      'bad server: nope: unknown key "nope"',
    ],
    [
      'broken YAML',
      () => file('carte.yaml', 'servers: [\n'),
      (p) => addServerToFile(p, 'b', { command: 'x' }),
      'bad_config',
      'cannot edit "$PATH": it is not valid YAML (line 2, column 1: Flow sequence in block collection must be sufficiently indented and end with a ])',
    ],
    [
      'broken JSON',
      () => file('carte.json', '{"servers": '),
      (p) => removeServerFromFile(p, 'b'),
      'bad_config',
      'cannot edit "$PATH": it is not valid JSON (line 1, column 13: unexpected end of input; expected a value)',
    ],
    [
      'a JSON array',
      () => file('carte.json', '[]'),
      (p) => removeServerFromFile(p, 'b'),
      'bad_config',
      'cannot edit "$PATH": its top level is not an object',
    ],
    [
      'servers that is a list',
      () => file('carte.yaml', 'servers: [a]\n'),
      (p) => addServerToFile(p, 'b', { command: 'x' }),
      'bad_config',
      'cannot edit "$PATH": its "servers" is not a mapping',
    ],
    [
      'an unknown extension',
      () => file('carte.toml'),
      (p) => addServerToFile(p, 'b', { command: 'x' }),
      'bad_input',
      'cannot edit "$PATH": use a .yaml, .yml or .json file',
    ],
  ];
  it.each(cases)('rejects %s', (_name, make, run, code, message) => {
    const path = make();
    let error: unknown;
    try {
      run(path);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CarteError);
    expect({ code: (error as CarteError).code, message: (error as CarteError).message }).toEqual({
      code,
      message: message.replace('$PATH', path),
    });
  });

  it('leaves the file alone on error', () => {
    const path = file('carte.yaml', YAML);
    expect(() => addServerToFile(path, 'alpha', { command: 'x' })).toThrow(/already exists/);
    expect(read(path)).toBe(YAML);
    expect(removeServerFromFile(file('missing.yaml'), 'a')).toBe(false);
    expect(existsSync(join(dir, 'missing.yaml'))).toBe(false);
  });
});
