import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveCacheDir, resolveConfigPath, resolveDataDir, userConfigPath } from '../index.js';

describe('resolveConfigPath', () => {
  const empty = mkdtempSync(join(tmpdir(), 'carte-cwd-'));
  const both = mkdtempSync(join(tmpdir(), 'carte-cwd-'));
  const jsonOnly = mkdtempSync(join(tmpdir(), 'carte-cwd-'));
  writeFileSync(join(both, 'carte.yaml'), '');
  writeFileSync(join(both, 'carte.json'), '{}');
  writeFileSync(join(jsonOnly, 'carte.json'), '{}');
  // A home with a user config, and one without.
  const home = mkdtempSync(join(tmpdir(), 'carte-home-'));
  mkdirSync(join(home, '.config', 'carte'), { recursive: true });
  writeFileSync(join(home, '.config', 'carte', 'carte.yaml'), '');
  const userFile = join(home, '.config', 'carte', 'carte.yaml');
  const bare = mkdtempSync(join(tmpdir(), 'carte-home-'));
  const linux = { platform: 'linux' as const, home: bare };

  it.each([
    [
      'the flag first',
      { flag: '/f.yaml', env: { CARTE_CONFIG: '/e.yaml' }, cwd: both, ...linux, home },
      { path: '/f.yaml', source: 'flag' },
    ],
    [
      'a relative flag from cwd',
      { flag: 'conf/c.yaml', env: {}, cwd: '/w', ...linux },
      { path: '/w/conf/c.yaml', source: 'flag' },
    ],
    [
      'CARTE_CONFIG next',
      { env: { CARTE_CONFIG: '/e.yaml' }, cwd: both, ...linux, home },
      { path: '/e.yaml', source: 'env' },
    ],
    [
      'an empty CARTE_CONFIG is unset',
      { env: { CARTE_CONFIG: '' }, cwd: jsonOnly, ...linux },
      { path: join(jsonOnly, 'carte.json'), source: 'cwd' },
    ],
    [
      'carte.yaml before carte.json',
      { env: {}, cwd: both, ...linux, home },
      { path: join(both, 'carte.yaml'), source: 'cwd' },
    ],
    [
      'carte.json when alone',
      { env: {}, cwd: jsonOnly, ...linux },
      { path: join(jsonOnly, 'carte.json'), source: 'cwd' },
    ],
    [
      'the user config when the working directory has none',
      { env: {}, cwd: empty, ...linux, home },
      { path: userFile, source: 'user' },
    ],
    [
      'the user config under an absolute XDG_CONFIG_HOME',
      { env: { XDG_CONFIG_HOME: join(home, '.config') }, cwd: empty, ...linux },
      { path: userFile, source: 'user' },
    ],
    [
      'not under a relative XDG_CONFIG_HOME (ignored, as the XDG spec says)',
      { env: { XDG_CONFIG_HOME: '.config' }, cwd: home, ...linux },
      { path: join(bare, '.config', 'carte', 'carte.yaml'), source: 'demo' },
    ],
    [
      'the demo when nothing exists, at the user config a write would create',
      { env: {}, cwd: empty, ...linux },
      { path: join(bare, '.config', 'carte', 'carte.yaml'), source: 'demo' },
    ],
    [
      'the demo under an absolute XDG_CONFIG_HOME with no file, at the file a write would create',
      { env: { XDG_CONFIG_HOME: join(empty, 'xdg') }, cwd: empty, ...linux },
      { path: join(empty, 'xdg', 'carte', 'carte.yaml'), source: 'demo' },
    ],
  ])('takes %s', (_name, opts, expected) => {
    expect(resolveConfigPath(opts)).toEqual(expected);
  });
});

describe('userConfigPath', () => {
  it.each<[string, Parameters<typeof userConfigPath>[0], string]>([
    ['~/.config on Linux', { env: {}, platform: 'linux', home: '/h' }, '/h/.config/carte/carte.yaml'],
    [
      'XDG_CONFIG_HOME when absolute',
      { env: { XDG_CONFIG_HOME: '/x' }, platform: 'linux', home: '/h' },
      '/x/carte/carte.yaml',
    ],
    [
      'not a relative XDG_CONFIG_HOME',
      { env: { XDG_CONFIG_HOME: 'x' }, platform: 'linux', home: '/h' },
      '/h/.config/carte/carte.yaml',
    ],
    [
      '~/.config on macOS too',
      { env: {}, platform: 'darwin', home: '/Users/u' },
      '/Users/u/.config/carte/carte.yaml',
    ],
    [
      'APPDATA on Windows',
      { env: { APPDATA: 'D:\\Roaming', XDG_CONFIG_HOME: '/x' }, platform: 'win32', home: 'C:\\Users\\u' },
      'D:\\Roaming\\carte\\carte.yaml',
    ],
    [
      'AppData\\Roaming without APPDATA',
      { env: {}, platform: 'win32', home: 'C:\\Users\\u' },
      'C:\\Users\\u\\AppData\\Roaming\\carte\\carte.yaml',
    ],
  ])('takes %s', (_name, opts, expected) => {
    expect(userConfigPath(opts)).toBe(expected);
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

describe('resolveCacheDir', () => {
  it.each<[string, Parameters<typeof resolveCacheDir>[0], string]>([
    [
      'CARTE_CACHE_DIR first',
      { env: { CARTE_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, platform: 'linux', home: '/h' },
      '/c',
    ],
    ['XDG_CACHE_HOME on Linux', { env: { XDG_CACHE_HOME: '/x' }, platform: 'linux', home: '/h' }, '/x/carte'],
    [
      'a relative XDG_CACHE_HOME is ignored',
      { env: { XDG_CACHE_HOME: 'rel' }, platform: 'linux', home: '/h' },
      '/h/.cache/carte',
    ],
    ['~/.cache on Linux', { env: {}, platform: 'linux', home: '/h' }, '/h/.cache/carte'],
    ['Caches on macOS', { env: {}, platform: 'darwin', home: '/Users/u' }, '/Users/u/Library/Caches/carte'],
    [
      'LOCALAPPDATA on Windows',
      { env: { LOCALAPPDATA: 'C:\\L' }, platform: 'win32', home: 'C:\\Users\\u' },
      'C:\\L\\carte\\cache',
    ],
  ])('takes %s', (_name, opts, expected) => {
    expect(resolveCacheDir(opts)).toBe(expected);
  });
});
