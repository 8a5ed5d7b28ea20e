import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CarteError } from '../../errors.js';
import { openStore } from '../../store/index.js';
import { argsDigest, AuditLog, canonicalJson, EVENT_BUFFER_MAX } from './audit.js';
import { localCaller, type CallerContext } from '../access/context.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

async function setup(args: 'digest' | 'redacted' = 'digest') {
  const dir = mkdtempSync(join(tmpdir(), 'carte-audit-'));
  dirs.push(dir);
  const path = join(dir, 'carte.db');
  const logs: string[] = [];
  const log = (level: string) => (m: string) => logs.push(`${level}: ${m}`);
  const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const store = await openStore(path);
  return { path, store, logs, audit: new AuditLog(store, logger, { arguments: args }) };
}

const TOKEN_CTX: CallerContext = {
  projectId: 'team',
  scopes: ['call'],
  tokenId: 'tok_abc',
  requestId: 'req-7',
};
const target = { key: 'github/search_issues', server: 'github' };
const OK = { content: [{ type: 'text', text: 'three issues' }] };
const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A';

describe('AuditLog.call', () => {
  it('writes a started row before the call, then its outcome, with who asked and a digest', async () => {
    const { store, audit } = await setup();
    const args = { q: 'is:open', limit: 5 };
    const seen: unknown[] = [];
    const result = await audit.call(TOKEN_CTX, { ...target, args }, async () => {
      seen.push(...(await store.activity.audit())); // what a kill at this instant would leave
      return OK;
    });
    expect(result).toBe(OK);
    expect(seen).toMatchObject([
      { outcome: 'started', key: target.key, project: 'team', tokenId: 'tok_abc' },
    ]);
    const [row] = await store.activity.audit();
    expect(row).toMatchObject({
      kind: 'call',
      outcome: 'ok',
      requestId: 'req-7',
      argsDigest: argsDigest(args),
      args: null,
      resultBytes: JSON.stringify(OK).length,
    });
    expect(row!.argsDigest).toMatch(/^[0-9a-f]{16}$/);
    await store.close();
  });

  it('classifies outcomes (tool_error, the CarteError code, internal) and passes results and errors through', async () => {
    const { store, audit } = await setup();
    const toolError = { content: [], isError: true };
    await expect(
      audit.call(localCaller('p'), { ...target, args: {} }, () => Promise.resolve(toolError)),
    ).resolves.toBe(toolError);
    const timeout = new CarteError('timeout', 'too slow');
    await expect(
      audit.call(localCaller('p'), { ...target, args: {} }, () => Promise.reject(timeout)),
    ).rejects.toBe(timeout);
    const bug = new TypeError('x is undefined');
    await expect(
      audit.call(localCaller('p'), { ...target, args: {} }, () => Promise.reject(bug)),
    ).rejects.toBe(bug);
    expect(
      (await store.activity.audit()).map((r) => [r.outcome, r.resultBytes === null, r.tokenId, r.detail]),
    ).toEqual([
      ['internal', true, null, 'internal error (a bug): x is undefined'],
      ['timeout', true, null, 'too slow'],
      ['tool_error', false, null, null], // the tool's own answer is its result: never kept
    ]);
    await store.close();
  });

  it.each([
    [
      'digest',
      'server "github" answered with error -32602 (its text is kept under audit.arguments: redacted)',
    ],
    ['redacted', `server "github" answered tools/call with error -32602: no such repo, token [redacted]`],
  ] as const)("keeps a failed call's message (arguments: %s), secrets redacted", async (mode, detail) => {
    const { store, audit } = await setup(mode);
    // An upstream's own error text may repeat an argument (here a token).
    const upstream = new CarteError(
      'upstream_error',
      `server "github" answered tools/call with error -32602: no such repo, token ${GHP}`,
      { details: { upstreamCode: -32602 } },
    );
    const denied = new CarteError('denied', `"github/search_issues" needs approval; token ${GHP}`);
    for (const err of [upstream, denied])
      await expect(audit.call(TOKEN_CTX, { ...target, args: {} }, () => Promise.reject(err))).rejects.toBe(
        err,
      );
    expect((await store.activity.audit()).map((r) => [r.outcome, r.detail])).toEqual([
      ['denied', '"github/search_issues" needs approval; token [redacted]'],
      ['upstream_error', detail],
    ]);
    await store.close();
  });

  it('refuses the call when its started row cannot be written, logs why, and never runs it', async () => {
    const { store, audit, logs } = await setup();
    await store.close();
    let ran = false;
    const attempt = audit.call(TOKEN_CTX, { ...target, args: {} }, () => {
      ran = true;
      return Promise.resolve(OK);
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'store',
      message: 'the call to "github/search_issues" was refused: its audit row could not be written',
    });
    expect(ran).toBe(false);
    expect(logs).toEqual([
      'error: refusing tool calls: cannot write their audit rows: The database connection is not open',
    ]);
  });

  it('keeps the started row as evidence when the finish cannot be written', async () => {
    const { path, store, audit, logs } = await setup();
    await audit.call(TOKEN_CTX, { ...target, args: {} }, async () => {
      await store.close(); // the store goes away mid-call
      return OK;
    });
    expect(logs).toEqual([
      'warn: cannot finish audit rows of tool calls (they stay "started"): The database connection is not open',
    ]);
    // The next start finds the store that began it gone with the call in flight (issue 40).
    const reopened = await openStore(path);
    expect(await reopened.activity.audit()).toMatchObject([{ outcome: 'interrupted', key: target.key }]);
    await reopened.close();
  });

  it('digests equal arguments alike whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
    expect(argsDigest({ a: 1, b: 2 })).toBe(argsDigest({ b: 2, a: 1 }));
    expect(argsDigest({ a: 1 })).not.toBe(argsDigest({ a: 2 }));
    expect(argsDigest(undefined)).toBe(argsDigest(null));
  });
});

describe('AuditLog.event', () => {
  it('stores a search query as its digest, or redacted under arguments: redacted', async () => {
    const digest = await setup('digest');
    digest.audit.event(TOKEN_CTX, {
      kind: 'search',
      detail: 'issues by octocat',
      outcome: 'ok',
      durationMs: 3,
    });
    await digest.audit.settle();
    expect(await digest.store.activity.audit()).toMatchObject([
      { kind: 'search', detail: argsDigest('issues by octocat'), project: 'team', tokenId: 'tok_abc' },
    ]);
    const redacted = await setup('redacted');
    redacted.audit.event(TOKEN_CTX, {
      kind: 'search',
      detail: `issues ${GHP}`,
      outcome: 'ok',
      durationMs: 3,
    });
    redacted.audit.event(TOKEN_CTX, {
      kind: 'describe',
      key: 'a/b',
      server: 'a',
      outcome: 'unknown_tool',
      durationMs: 1,
    });
    await redacted.audit.settle();
    expect((await redacted.store.activity.audit()).map((r) => [r.kind, r.detail, r.key, r.outcome])).toEqual([
      ['describe', null, 'a/b', 'unknown_tool'],
      ['search', 'issues [redacted]', null, 'ok'],
    ]);
    await digest.store.close();
    await redacted.store.close();
  });

  it('only warns (throttled) when the write fails', async () => {
    const { store, audit, logs } = await setup();
    await store.close();
    for (let i = 0; i < 3; i++) audit.event(TOKEN_CTX, { kind: 'browse', outcome: 'ok', durationMs: 1 });
    await audit.settle();
    expect(logs).toEqual([
      'warn: cannot write browse events to the audit log: The database connection is not open',
    ]);
  });
});

describe('AuditLog while the store does not answer', () => {
  /** The store's activity, away (store_unavailable) until `back()`: what PostgreSQL being down looks like. */
  async function away() {
    const { store, logs } = await setup();
    let down = true;
    const unavailable = () => new CarteError('store_unavailable', 'the store does not answer; retry shortly');
    const activity = {
      ...store.activity,
      record: (e: Parameters<typeof store.activity.record>[0]) =>
        down ? Promise.reject(unavailable()) : store.activity.record(e),
      beginGrouped: (e: Parameters<typeof store.activity.beginGrouped>[0]) =>
        down ? Promise.reject(unavailable()) : store.activity.beginGrouped(e),
    };
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    const audit = new AuditLog({ activity }, logger);
    return { store, logs, audit, back: () => (down = false) };
  }

  it('refuses calls with store_unavailable, and never runs them', async () => {
    const { store, audit } = await away();
    let ran = false;
    await expect(
      audit.call(TOKEN_CTX, { ...target, args: {} }, () => {
        ran = true;
        return Promise.resolve(OK);
      }),
    ).rejects.toMatchObject({ code: 'store_unavailable' });
    expect(ran).toBe(false);
    await store.close();
  });

  it('keeps search events, in order, and writes them once the store answers', async () => {
    const { store, audit, back } = await away();
    for (const q of ['one', 'two', 'three'])
      audit.event(TOKEN_CTX, { kind: 'search', detail: q, outcome: 'ok', durationMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(audit.buffered).toBe(3);
    back();
    await audit.settle();
    expect(audit.buffered).toBe(0);
    const rows = await store.activity.audit();
    expect(rows.map((r) => r.detail).reverse()).toEqual(['one', 'two', 'three'].map((q) => argsDigest(q)));
    await store.close();
  });

  it('refuses a read rather than drop its row once EVENT_BUFFER_MAX events wait', async () => {
    const { store, audit } = await away();
    for (let i = 0; i < EVENT_BUFFER_MAX; i++)
      audit.event(TOKEN_CTX, { kind: 'browse', outcome: 'ok', durationMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(audit.buffered).toBe(EVENT_BUFFER_MAX);
    expect(() => audit.event(TOKEN_CTX, { kind: 'browse', outcome: 'ok', durationMs: 1 })).toThrow(
      `the store does not answer and ${EVENT_BUFFER_MAX} audit events wait for it; retry shortly`,
    );
    await store.close();
  });
});

describe('secrets never reach the audit rows or the logs', () => {
  const planted = [
    GHP,
    'sk-proj-' + 'Zx8Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8L',
    'hunter2-correct-horse',
    'AKIA' + 'IOSFODNN7EXAMPLE',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  ];
  it.each(['digest', 'redacted'] as const)('with arguments: %s', async (mode) => {
    const { store, audit, logs } = await setup(mode);
    const args = {
      query: `find ${planted[0]}`,
      password: planted[2],
      nested: { headers: { Authorization: `Bearer ${planted[1]}` }, list: [planted[3], planted[4]] },
    };
    await audit.call(TOKEN_CTX, { ...target, args }, () => Promise.resolve(OK));
    await expect(
      audit.call(TOKEN_CTX, { ...target, args }, () => Promise.reject(new CarteError('timeout', 'slow'))),
    ).rejects.toThrow('slow');
    audit.event(TOKEN_CTX, { kind: 'search', detail: args.query, outcome: 'ok', durationMs: 1 });
    await audit.settle();
    const dump = JSON.stringify([...(await store.activity.exportAudit())]) + logs.join('\n');
    for (const secret of planted) expect(dump).not.toContain(secret);
    if (mode === 'redacted') expect(dump).toContain('"password":"[redacted]"');
    await store.close();
  });
});
