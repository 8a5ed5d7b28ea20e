import { describe, expect, it } from 'vitest';
import { categorizeCatalog } from '../index.js';

describe('categorizeCatalog', () => {
  it('categorises catalog entries by server, in catalog order, the first of duplicate ids kept', () => {
    const result = categorizeCatalog([
      { server: 'gh', name: 'create_issue', description: 'Create an issue in a GitHub repository' },
      {
        server: 'fs',
        name: 'read_file',
        description: 'Read a file',
        inputSchema: { properties: { path: {} } },
      },
      { server: 'gh', name: 'list_commits', description: null, inputSchema: null },
      { server: 'gh', name: 'create_issue', description: 'A copy' },
    ]);
    expect(result.servers).toBe(2);
    expect(result.duplicates).toBe(1);
    expect(result.tools).toEqual([
      { key: 'gh/create_issue', category: 'code', tags: ['create', 'github'] },
      { key: 'fs/read_file', category: 'files', tags: ['read'] },
      { key: 'gh/list_commits', category: 'code', tags: ['list'] },
    ]);
  });

  it.each([
    [[{ name: 'x' }], 'catalog entry 0 needs string "server" and "name", got {"name":"x"}'],
    [[{ server: 's', name: 'x', description: 3 }], 'catalog entry 0 ("s/x") has a non-string "description"'],
  ])('refuses %j', (entries, message) => {
    expect(() => categorizeCatalog(entries)).toThrow(message);
  });
});
