import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, PG_RUN_URL } from '../../../src/store/test-engines.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

// Slow: `carte store copy` as an operator runs it (docs/operations.md, "Moving up from one
// machine"): the built CLI, a data dir with a synced catalog, a token and audit rows, and an
// empty PostgreSQL database, then the same database again, no longer empty.
const tmp = tempDir();
afterAll(() => tmp.cleanup());

function carte(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        join(ROOT, 'bin', 'carte.js'),
        '--data-dir',
        join(tmp.dir, 'data'),
        '--config',
        join(tmp.dir, 'carte.yaml'),
        ...args,
      ],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '', CARTE_DATABASE_URL: '' }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(PG_RUN_URL === '')('carte store copy', () => {
  it('prints each table it copied, then refuses the database it filled, naming its tables', async () => {
    writeFileSync(
      join(tmp.dir, 'carte.yaml'),
      `servers:\n  paged:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}]\n`,
    );
    expect((await carte(['sync'])).code).toBe(0);
    expect((await carte(['token', 'create', '--project', 'default'])).code).toBe(0);
    const url = await createDatabase();
    const first = await carte(['store', 'copy', '--to', url]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^tools +7$/m);
    expect(first.stdout).toMatch(/^tokens +1$/m);
    expect(first.stderr).toContain('  tokens: 1 row\n');
    expect(first.stderr).toContain('  tools: 7 rows\n');
    const again = await carte(['store', 'copy', '--to', url]);
    expect(again.code).toBe(64);
    expect(again.stderr).toMatch(
      /carte: the store at "[^"]+" is not empty \(servers, tools, \S.* hold rows\); copy into an empty database/,
    );
  });
});
