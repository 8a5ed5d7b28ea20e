import { describe, expect, it } from 'vitest';
import { closestKeys } from '../index.js';

describe('closestKeys', () => {
  const keys = [
    'github/create_issue',
    'github/create_pull_request',
    'memory/create_entities',
    'memory/create_relations',
    'fs/read_file',
    'git/read_file',
  ];
  it.each([
    ['github/create_isue', ['github/create_issue']],
    ['memory/create_entity', ['memory/create_entities']],
    ['other/read_file', ['fs/read_file', 'git/read_file']],
    ['zzz', []],
  ])('%s suggests %j', (unknown, expected) => expect(closestKeys(unknown, keys)).toEqual(expected));
});
