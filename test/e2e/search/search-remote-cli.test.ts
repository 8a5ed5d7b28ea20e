import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStub, type Stub, type StubReply } from '../../fixtures/remote-stub.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

// Slow: the built CLI as a real process, with search.strategy remote and a reranker on an HTTP
// stub on port 0 (`npm test` builds first).
const BIN = join(ROOT, 'bin', 'carte.js');
const KEY = 'jina_test-secret-0123456789';
const tmp = tempDir();
const config = join(tmp.dir, 'carte.yaml');
let stub: Stub;
let rerank: () => StubReply;

beforeAll(async () => {
  stub = await startStub();
  stub.reply = () => rerank();
  writeFileSync(
    config,
    [
      'servers:',
      '  paged:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}]`,
      'search:',
      '  strategy: remote',
      '  remote:',
      // Generous: no test here waits for the deadline, and a loaded CI machine is slow to start a fetch.
      '    timeoutMs: 5000',
      '    rerank:',
      `      url: ${stub.url}/rerank`,
      '      model: m',
      '      apiKey: ${env:RERANK_KEY}',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await stub.close();
  tmp.cleanup();
});

function carte(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', join(tmp.dir, 'data'), '--config', config, ...args],
      { cwd: tmp.dir, env: { ...process.env, CARTE_CONFIG: '', RERANK_KEY: KEY }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('carte with search.strategy remote', () => {
  const provider = () => `rerank:${stub.url.slice('http://'.length)}/m`;

  it('reranks `carte search --json` and reports the provider in "meta"', async () => {
    expect((await carte(['sync'])).code).toBe(0);
    rerank = () => ({ body: JSON.stringify({ results: [{ index: 1, relevance_score: 1 }] }) });
    const r = await carte(['search', 'page', 'tool', '--json']);
    expect(r.code).toBe(0);
    const { results, meta } = JSON.parse(r.stdout) as { results: { key: string }[]; meta: unknown };
    expect(results.length).toBeGreaterThan(1);
    expect(meta).toEqual({
      strategy: 'remote',
      fallback: false,
      steps: [{ provider: provider(), fallback: false }],
    });
    expect(stub.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    const { documents } = stub.requests.at(-1)?.body as { documents: string[] };
    expect(results[0]?.key).toBe(documents[1]?.split(':')[0]);
  });

  it('falls back to the local order with a warning on stderr that never holds the key', async () => {
    rerank = () => ({ status: 401, body: `{"error":"invalid key ${KEY}"}` });
    const r = await carte(['search', 'page', 'tool', '--json']);
    expect(r.code).toBe(0);
    const reason = `remote provider "${provider()}" answered HTTP 401`;
    expect((JSON.parse(r.stdout) as { meta: unknown }).meta).toEqual({
      strategy: 'remote',
      fallback: true,
      steps: [{ provider: provider(), fallback: true, reason }],
    });
    expect(r.stderr).toBe(`carte warn: search: ${reason}; keeping the local order\n`);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('doctor shows the remote provider on its search line', async () => {
    const r = await carte(['doctor']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^ok +search +remote: lexical; rerank ${provider()}$`, 'm'));
  });
});
