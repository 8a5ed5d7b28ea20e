import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) as a real process.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

function carte(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', join(tmp.dir, 'data'), ...args],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('carte categorize', () => {
  const catalog = join(tmp.dir, 'catalog.json');
  const more = join(tmp.dir, 'more.json');
  const out = join(tmp.dir, 'categories.jsonl');
  writeFileSync(
    catalog,
    JSON.stringify([
      {
        server: '@acme/files',
        name: 'read_file',
        description: 'Read a file from disk',
        inputSchema: { properties: { path: {} } },
      },
      { server: 'slack', name: 'send_message', description: 'Send a message to a Slack channel' },
      { server: 'slack', name: 'get_status', description: 'Get the current status' },
    ]),
  );
  writeFileSync(
    more,
    JSON.stringify([{ server: 'weather', name: 'get_forecast', description: 'Weather forecast' }]),
  );

  it('writes {key, category, tags} per tool of every catalog file, starting nothing', async () => {
    const r = await carte(['categorize', '--catalog', catalog, '--catalog', more, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^categorized 4 tools on 3 servers from 2 files in \d+ ms\n$/);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual([
      { key: '@acme/files/read_file', category: 'files', tags: ['read'] },
      { key: 'slack/send_message', category: 'communication', tags: ['send', 'slack'] },
      { key: 'slack/get_status', category: 'communication', tags: ['read', 'slack'] },
      { key: 'weather/get_forecast', category: 'utilities', tags: ['read'] },
    ]);
  });

  it.each([
    ['no --catalog', ['--out', out], 'carte: categorize needs at least one --catalog FILE'],
    ['no --out', ['--catalog', catalog], 'carte: categorize needs --out FILE'],
    [
      'a missing file',
      ['--catalog', join(tmp.dir, 'missing.json'), '--out', out],
      /^carte: --catalog .*missing\.json: ENOENT/,
    ],
  ])('refuses %s with exit 64', async (_, args, message) => {
    const r = await carte(['categorize', ...args]);
    expect(r.code).toBe(64);
    if (typeof message === 'string') expect(r.stderr.trim()).toBe(message);
    else expect(r.stderr).toMatch(message);
  });
});
