import { afterEach, describe, expect, it } from 'vitest';
import { RANKER_DEFAULTS, snapshotKey, type SearchDoc } from '../../search/index.js';
import { type Store } from '../../store/index.js';
import { buildIndexWithSnapshot, SNAPSHOT_MIN_TOOLS } from './index-snapshot.js';
import { tempStores } from '../../../test/e2e/helpers.js';

const tempStore = tempStores('carte-snapshot-', afterEach).open;

const DOCS: SearchDoc[] = [
  {
    key: 'fs/read_file',
    server: 'fs',
    name: 'read_file',
    description: 'Read a file from disk',
    paramNames: ['path'],
  },
  { key: 'mail/send_email', server: 'mail', name: 'send_email', description: 'Send an email message' },
  {
    key: 'weather/get_forecast',
    server: 'weather',
    name: 'get_forecast',
    description: 'Weather forecast for a city',
  },
];
const QUERIES = ['read a file', 'send mail', 'wether forecast', 'fs read_file', ''];

describe('buildIndexWithSnapshot', () => {
  it('stores the analysis on the first build and answers identically from it afterwards', async () => {
    const store = await tempStore();
    const warnings: string[] = [];
    const opts = { snapshots: store.snapshots, warn: (m: string) => warnings.push(m), minTools: 0 };
    const first = await buildIndexWithSnapshot(DOCS, opts);
    expect(first.from).toBe('build');
    expect(await store.snapshots.keys()).toEqual([snapshotKey(DOCS, RANKER_DEFAULTS)]);
    const second = await buildIndexWithSnapshot(DOCS, opts);
    expect(second.from).toBe('snapshot');
    for (const q of QUERIES) expect(second.index.search(q)).toEqual(first.index.search(q));
    // A changed catalog misses and stores its own snapshot next to the old one.
    const changed = [...DOCS.slice(0, 2), { ...DOCS[2]!, description: 'Weather forecast and alerts' }];
    expect((await buildIndexWithSnapshot(changed, opts)).from).toBe('build');
    expect(await store.snapshots.keys()).toHaveLength(2);
    expect(warnings).toEqual([]);
  });

  it('rebuilds over a damaged snapshot, says so, and repairs it', async () => {
    const store = await tempStore();
    const warnings: string[] = [];
    const opts = { snapshots: store.snapshots, warn: (m: string) => warnings.push(m), minTools: 0 };
    await store.snapshots.put(snapshotKey(DOCS, RANKER_DEFAULTS), Buffer.from('not a snapshot'));
    const { index, from } = await buildIndexWithSnapshot(DOCS, opts);
    expect(from).toBe('build');
    expect(index.search('send mail')[0]?.key).toBe('mail/send_email');
    expect(warnings).toEqual([
      expect.stringMatching(/^search snapshot not used, rebuilding the index: search snapshot is damaged: /),
    ]);
    expect((await buildIndexWithSnapshot(DOCS, opts)).from).toBe('snapshot');
  });

  it('still searches when the snapshot cannot be read or stored', async () => {
    const failing: Pick<Store['snapshots'], 'get' | 'put'> = {
      get: () => Promise.reject(new Error('SQLITE_IOERR: disk I/O error')),
      put: () => Promise.reject(new Error('SQLITE_FULL: database or disk is full')),
    };
    const warnings: string[] = [];
    const { index, from } = await buildIndexWithSnapshot(DOCS, {
      snapshots: failing,
      warn: (m) => warnings.push(m),
      minTools: 0,
    });
    expect(from).toBe('build');
    expect(index.search('read a file')[0]?.key).toBe('fs/read_file');
    expect(warnings).toEqual([
      'search snapshot not used, rebuilding the index: SQLITE_IOERR: disk I/O error',
      'search snapshot not stored (the next cold start rebuilds it): SQLITE_FULL: database or disk is full',
    ]);
  });

  it('skips small catalogs, and keeps only the newest snapshots', async () => {
    const store = await tempStore();
    const opts = { snapshots: store.snapshots, warn: () => {} };
    expect(DOCS.length).toBeLessThan(SNAPSHOT_MIN_TOOLS);
    expect((await buildIndexWithSnapshot(DOCS, opts)).from).toBe('small');
    expect(await store.snapshots.keys()).toEqual([]);
    for (const k of ['a', 'b', 'c']) await store.snapshots.put(k, Buffer.from(k));
    expect(await store.snapshots.keys()).toEqual(['b', 'c']);
    expect(await store.snapshots.get('a')).toBeUndefined();
    expect((await store.snapshots.get('c'))?.toString()).toBe('c');
  });
});
