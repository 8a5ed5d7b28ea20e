import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuditLog, openStore } from '../../../src/gateway/index.js';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) as a real process whose stdout is a pipe with
// a slow reader, against the same command redirected to a file (issue 25, item 6). The process
// used to exit as soon as the command resolved, so a pipe got only its first 64 KiB.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir('carte-cli-pipes-');
const DATA = join(tmp.dir, 'data');
const CONFIG = join(tmp.dir, 'carte.yaml');
/** Enough audit rows that both outputs are several megabytes, far past a pipe's 64 KiB buffer. */
const ROWS = 12_000;
afterAll(() => tmp.cleanup());

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

const ARGS = ['--data-dir', DATA, '--config', CONFIG];
const ENV = { ...process.env, CARTE_CONFIG: '' };

/** Runs the CLI with stdout to a pipe read in small bites with pauses, after a first wait. */
function throughSlowPipe(args: readonly string[], stopAfterBytes = Infinity): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...ARGS, ...args], { cwd: tmp.dir, env: ENV });
    const chunks: Buffer[] = [];
    let stderr = '';
    let read = 0;
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.pause();
    child.stdout.on('data', (c: Buffer) => {
      chunks.push(c);
      read += c.length;
      if (read >= stopAfterBytes) return child.stdout.destroy();
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 2);
    });
    setTimeout(() => child.stdout.resume(), 1000);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks), stderr }));
  });
}

/** Runs the CLI with stdout redirected to a file, which never blocks a writer. */
function toFile(args: readonly string[]): Promise<Run> {
  const path = join(tmp.dir, `out-${args.join('-')}.txt`);
  const fd = openSync(path, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...ARGS, ...args], {
      cwd: tmp.dir,
      env: ENV,
      stdio: ['ignore', fd, 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(fd);
      resolve({ code, stdout: readFileSync(path), stderr });
    });
  });
}

beforeAll(async () => {
  writeFileSync(
    CONFIG,
    `servers:\n  faults:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(join(FIXTURES, 'faults.mjs'))}]\n`,
  );
  const store = await openStore(join(DATA, 'carte.db'));
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const audit = new AuditLog(store, quiet, { arguments: 'digest' });
  const ctx = { projectId: 'team', scopes: ['call'], tokenId: 'tok_1', requestId: 'r1' };
  const ok = () => Promise.resolve({ content: [{ type: 'text', text: 'done' }] });
  for (let i = 0; i < ROWS / 2; i++) {
    audit.event(ctx, { kind: 'search', detail: `query number ${i}`, outcome: 'ok', durationMs: 2 });
    await audit.call(ctx, { key: 'faults/echo', server: 'faults', args: { text: `call ${i}` } }, ok);
  }
  await audit.settle();
  await store.close();
});

describe('every output reaches a pipe whole', () => {
  it.each([
    ['audit export', ['audit', 'export']],
    ['audit --json', ['audit', '--json', '--limit', '1000000']],
  ])('%s: a slow pipe gets the same bytes as a file, and the exit code is 0', async (_, args) => {
    const file = await toFile(args);
    expect(file.stderr).toBe('');
    expect(file.code).toBe(0);
    expect(file.stdout.length).toBeGreaterThan(2 * 1024 * 1024);
    const piped = await throughSlowPipe(args);
    expect(piped.stderr).toBe('');
    expect(piped.code).toBe(0);
    expect(piped.stdout.length).toBe(file.stdout.length);
    expect(piped.stdout.equals(file.stdout)).toBe(true);
  });

  it('export writes one JSON row per line, every row', async () => {
    const file = await toFile(['audit', 'export']);
    const lines = file.stdout.toString().trimEnd().split('\n');
    expect(lines).toHaveLength(ROWS);
    expect(lines.every((l) => typeof (JSON.parse(l) as { kind: string }).kind === 'string')).toBe(true);
  });

  it('a reader that stops early (| head) ends the export quietly, with exit code 0', async () => {
    const r = await throughSlowPipe(['audit', 'export'], 100_000);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
