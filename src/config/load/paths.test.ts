import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfigPath, resolveDataDir } from '../index.js';

describe('resolveConfigPath', () => {
  const empty = mkdtempSync(join(tmpdir(), 'carte-cwd-'));
  const both = mkdtempSync(join(tmpdir(), 'carte-cwd-'));
  const jsonOnly = mkdtempSync(join(tmpdir(), 'carte-cwd-'));
  writeFileSync(join(both, 'carte.yaml'), '');
  writeFileSync(join(both, 'carte.json'), '{}');
  writeFileSync(join(jsonOnly, 'carte.json'), '{}');

  it.each([
    [
      'the flag first',
      { flag: '/f.yaml', env: { CARTE_CONFIG: '/e.yaml' }, cwd: both },
      { path: '/f.yaml', source: 'flag' },
    ],
    [
      'a relative flag from cwd',
      { flag: 'conf/c.yaml', env: {}, cwd: '/w' },
      { path: '/w/conf/c.yaml', source: 'flag' },
    ],
    [
      'CARTE_CONFIG next',
      { env: { CARTE_CONFIG: '/e.yaml' }, cwd: both },
      { path: '/e.yaml', source: 'env' },
    ],
    [
      'an empty CARTE_CONFIG is unset',
      { env: { CARTE_CONFIG: '' }, cwd: jsonOnly },
      { path: join(jsonOnly, 'carte.json'), source: 'cwd' },
    ],
    [
      'carte.yaml before carte.json',
      { env: {}, cwd: both },
      { path: join(both, 'carte.yaml'), source: 'cwd' },
    ],
    [
      'carte.json when alone',
      { env: {}, cwd: jsonOnly },
      { path: join(jsonOnly, 'carte.json'), source: 'cwd' },
    ],
    [
      'the demo when nothing exists',
      { env: {}, cwd: empty },
      { path: join(empty, 'carte.yaml'), source: 'demo' },
    ],
  ])('takes %s', (_name, opts, expected) => {
    expect(resolveConfigPath(opts)).toEqual(expected);
  });
});

describe('resolveDataDir', () => {
  it.each<[string, Parameters<typeof resolveDataDir>[0], string]>([
    ['the flag first', { flag: '/f', env: { CARTE_DATA_DIR: '/e' }, platform: 'linux', home: '/h' }, '/f'],
    [
      'CARTE_DATA_DIR next',
      { env: { CARTE_DATA_DIR: '/e', XDG_DATA_HOME: '/x' }, platform: 'linux', home: '/h' },
      '/e',
    ],
    ['XDG_DATA_HOME on Linux', { env: { XDG_DATA_HOME: '/x' }, platform: 'linux', home: '/h' }, '/x/carte'],
    [
      'a relative XDG_DATA_HOME is ignored',
      { env: { XDG_DATA_HOME: 'rel' }, platform: 'linux', home: '/h' },
      '/h/.local/share/carte',
    ],
    ['~/.local/share on Linux', { env: {}, platform: 'linux', home: '/h' }, '/h/.local/share/carte'],
    ['~/.local/share on FreeBSD', { env: {}, platform: 'freebsd', home: '/h' }, '/h/.local/share/carte'],
    [
      'Application Support on macOS',
      { env: { XDG_DATA_HOME: '/x' }, platform: 'darwin', home: '/Users/u' },
      '/Users/u/Library/Application Support/carte',
    ],
    [
      'LOCALAPPDATA on Windows',
      { env: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, platform: 'win32', home: 'C:\\Users\\u' },
      'C:\\Users\\u\\AppData\\Local\\carte',
    ],
    [
      'AppData\\Local without LOCALAPPDATA',
      { env: {}, platform: 'win32', home: 'C:\\Users\\u' },
      'C:\\Users\\u\\AppData\\Local\\carte',
    ],
  ])('takes %s', (_name, opts, expected) => {
    expect(resolveDataDir(opts)).toBe(expected);
  });
});
