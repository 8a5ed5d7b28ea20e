import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runNodeJob, runNodeJobSync } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'carte-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const module = join(dir, 'job.mjs');
writeFileSync(
  module,
  `import { writeFileSync } from 'node:fs';
export function write(path) { writeFileSync(path, String(process.pid)); }
export function fail() { throw new Error('no dictionary here'); }
`,
);
const url = pathToFileURL(module).href;

describe('runNodeJob (slow: spawns node)', () => {
  it('runs the export with its argument in another process', async () => {
    const out = join(dir, 'out');
    await runNodeJob(url, 'write', out);
    expect(Number(readFileSync(out, 'utf8'))).not.toBe(process.pid);
  });

  it('runs it blocking too, and throws the same way', () => {
    const out = join(dir, 'out-sync');
    runNodeJobSync(url, 'write', out);
    expect(Number(readFileSync(out, 'utf8'))).not.toBe(process.pid);
    expect(() => runNodeJobSync(url, 'fail', '')).toThrow(/^exited with 1: Error: no dictionary here$/);
  });

  it('rejects with the error line of what the job printed when it throws', async () => {
    await expect(runNodeJob(url, 'fail', '')).rejects.toThrow(
      /^exited with 1: Node\.js v\d+|no dictionary here/,
    );
  });
});
