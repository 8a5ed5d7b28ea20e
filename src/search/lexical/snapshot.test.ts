import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyseCatalog,
  buildSearchIndex,
  decodeLexicalState,
  encodeLexicalState,
  RANKER_DEFAULTS,
  snapshotKey,
  SnapshotError,
  subsetLexicalState,
  type LexicalState,
  type SearchDoc,
} from '../index.js';

const WORDS = ['read', 'files', 'weather', 'forecast', 'send', 'email', '天气', 'café', 'github', 'issue'];

const docArb = fc.record({
  server: fc.constantFrom('fs', 'mail', 'weather-srv', 'gh'),
  name: fc.constantFrom('read_file', 'sendEmail', 'get_forecast', 'createIssue', 'list'),
  description: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(' ')),
  title: fc.option(fc.constantFrom('Read a file', 'Send mail', 'Forecast'), { nil: undefined }),
  paramNames: fc.array(fc.constantFrom('path', 'to', 'city', 'repo'), { maxLength: 3 }),
  serverDescription: fc.option(fc.constantFrom('Files on disk', 'Mail server'), { nil: undefined }),
  useCases: fc.array(fc.constantFrom('save a note to disk', 'test my website', 'check the weather'), {
    maxLength: 2,
  }),
});
const catalogArb = fc.uniqueArray(docArb, {
  selector: (d) => `${d.server}/${d.name}`,
  minLength: 1,
  maxLength: 12,
});
interface RawDoc {
  server: string;
  name: string;
  description: string;
  title: string | undefined;
  paramNames: string[];
  serverDescription: string | undefined;
  useCases?: string[];
}
const toDocs = (raw: readonly RawDoc[]): SearchDoc[] =>
  raw.map((d) => ({
    key: `${d.server}/${d.name}`,
    server: d.server,
    name: d.name,
    description: d.description,
    paramNames: d.paramNames,
    ...(d.title ? { title: d.title } : {}),
    ...(d.serverDescription ? { serverDescription: d.serverDescription } : {}),
    ...(d.useCases?.length ? { useCases: d.useCases } : {}),
  }));

describe('lexical snapshot', () => {
  it('an index from a decoded snapshot answers exactly like a freshly built one', () => {
    const query = fc.oneof(
      fc
        .array(fc.constantFrom(...WORDS, 'wether', 'emial', 'read_file', 'gh createIssue'), {
          minLength: 1,
          maxLength: 3,
        })
        .map((w) => w.join(' ')),
      fc.array(fc.constantFrom('read files', 'send email', 'forecast'), { minLength: 2, maxLength: 3 }),
    );
    fc.assert(
      fc.property(catalogArb, fc.array(query, { minLength: 1, maxLength: 4 }), (raw, queries) => {
        const docs = toDocs(raw);
        const built = buildSearchIndex(docs);
        const bytes = encodeLexicalState(built.lexicalState);
        const loaded = buildSearchIndex(docs, {}, decodeLexicalState(bytes, docs.length));
        for (const q of queries)
          expect(loaded.search(q, { limit: 50 })).toEqual(built.search(q, { limit: 50 }));
        expect(encodeLexicalState(loaded.lexicalState).equals(bytes)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips the state itself, including CJK and accented terms', () => {
    const docs = toDocs([
      {
        server: 'w',
        name: 'get_forecast',
        description: '天气 café forecast',
        title: 'Forecast',
        paramNames: ['city'],
        serverDescription: 'Mail server',
      },
      {
        server: 'fs',
        name: 'read_file',
        description: 'read files',
        title: undefined,
        paramNames: [],
        serverDescription: undefined,
      },
    ]);
    const state = analyseCatalog(docs, RANKER_DEFAULTS);
    expect(decodeLexicalState(encodeLexicalState(state), docs.length)).toEqual(state);
  });

  it('refuses damaged or mismatched bytes with a SnapshotError, never a wrong index', () => {
    const docs = toDocs([
      {
        server: 'fs',
        name: 'read_file',
        description: 'read files',
        title: undefined,
        paramNames: ['path'],
        serverDescription: undefined,
      },
      {
        server: 'mail',
        name: 'sendEmail',
        description: 'send email',
        title: undefined,
        paramNames: [],
        serverDescription: undefined,
      },
    ]);
    const bytes = encodeLexicalState(analyseCatalog(docs, RANKER_DEFAULTS));
    expect(() => decodeLexicalState(bytes, 3)).toThrow(SnapshotError);
    expect(() => decodeLexicalState(bytes.subarray(0, bytes.length - 8), 2)).toThrow(/runs past the end/);
    expect(() => decodeLexicalState(Buffer.from('garbage!'), 2)).toThrow(SnapshotError);
    const headLength = bytes.readUInt32LE(0);
    const bad = Buffer.from(bytes);
    bad.write('[', 4); // the head is no longer JSON
    expect(() => decodeLexicalState(bad, 2)).toThrow('search snapshot is damaged: its head is not JSON');
    // A document number out of range: the first tool posting's doc id, right after the offsets.
    const head = JSON.parse(bytes.subarray(4, 4 + headLength).toString()) as { tools: { terms: string[] } };
    const at = Math.ceil((4 + headLength) / 8) * 8 + Math.ceil(((head.tools.terms.length + 1) * 4) / 8) * 8;
    const outOfRange = Buffer.from(bytes);
    outOfRange.writeInt32LE(99, at);
    expect(() => decodeLexicalState(outOfRange, 2)).toThrow('search snapshot is damaged: tool document 99');
  });

  it('its key changes with any searchable field, the options or the order, and with nothing else', () => {
    const docs = toDocs([
      {
        server: 'fs',
        name: 'read_file',
        description: 'read files',
        title: 'Read',
        paramNames: ['path'],
        serverDescription: 'Files',
      },
      {
        server: 'mail',
        name: 'send',
        description: 'send email',
        title: undefined,
        paramNames: [],
        serverDescription: undefined,
      },
    ]);
    const key = snapshotKey(docs, RANKER_DEFAULTS);
    expect(snapshotKey(toDocs([]), RANKER_DEFAULTS)).not.toBe(key);
    expect(
      snapshotKey(
        docs.map((d) => ({ ...d })),
        RANKER_DEFAULTS,
      ),
    ).toBe(key);
    const changed: SearchDoc[][] = [
      [{ ...docs[0]!, description: 'read file' }, docs[1]!],
      [{ ...docs[0]!, title: 'Reads' }, docs[1]!],
      [{ ...docs[0]!, paramNames: ['paths'] }, docs[1]!],
      [{ ...docs[0]!, serverDescription: 'Files!' }, docs[1]!],
      // Use cases come from rules, not the catalog: a stale snapshot must never be read for them.
      [{ ...docs[0]!, useCases: ['save a note'] }, docs[1]!],
      [{ ...docs[0]!, useCases: ['save a', 'note'] }, docs[1]!],
      [{ ...docs[0]!, name: 'read_fil' }, docs[1]!],
      [docs[1]!, docs[0]!],
      // Field boundaries count: moving text from one field to the next is a change.
      [{ ...docs[0]!, title: 'Rea', description: 'dread files' }, docs[1]!],
    ];
    for (const variant of changed) expect(snapshotKey(variant, RANKER_DEFAULTS)).not.toBe(key);
    expect(snapshotKey(changed[5]!, RANKER_DEFAULTS)).not.toBe(snapshotKey(changed[4]!, RANKER_DEFAULTS));
    expect(snapshotKey(docs, { ...RANKER_DEFAULTS, serverWeight: 0.6 })).not.toBe(key);
  });

  it('analyseCatalog counts each surface word once per tool, server words included', () => {
    const docs = toDocs([
      {
        server: 'fs',
        name: 'read_file',
        description: 'read read files',
        title: undefined,
        paramNames: ['path'],
        serverDescription: 'Files on disk',
      },
      {
        server: 'fs',
        name: 'write_file',
        description: 'write files',
        title: undefined,
        paramNames: ['path'],
        serverDescription: 'Files on disk',
      },
      {
        server: 'mail',
        name: 'send',
        description: 'send email',
        title: 'Send mail',
        paramNames: [],
        serverDescription: undefined,
      },
    ]);
    const state = analyseCatalog(docs, RANKER_DEFAULTS);
    const f = (w: string) => state.surfaceFrequency.get(w);
    expect([f('read'), f('file'), f('files'), f('path'), f('fs'), f('disk'), f('send'), f('mail')]).toEqual([
      1, 2, 2, 2, 2, 2, 1, 1,
    ]);
    expect(f('on')).toBeUndefined(); // a stop word
    expect([...state.nameTerms[2]!].sort()).toEqual(['mail', 'send']);
    expect(state.tools.size).toBe(3);
    expect(state.servers.size).toBe(2);
  });
});

/** A state without its per-tool words, which number words their own way (the rest must be equal). */
const comparable = ({ tools, servers, surfaceFrequency, nameTerms }: LexicalState) => ({
  tools,
  servers,
  surfaceFrequency: [...surfaceFrequency], // in order: the typo corrector reads it in order
  nameTerms: nameTerms.map((set) => [...set]),
});

describe("a subset's lexical state (a caller's index)", () => {
  const subsetArb = catalogArb.chain((raw) =>
    fc.tuple(fc.constant(raw), fc.array(fc.boolean(), { minLength: raw.length, maxLength: raw.length })),
  );

  it('equals analysing the subset afresh, from the built state and from a decoded snapshot, nested too', () => {
    fc.assert(
      fc.property(subsetArb, ([raw, kept]) => {
        const docs = toDocs(raw);
        const keep = kept.flatMap((k, i) => (k ? [i] : []));
        const sub = keep.map((i) => docs[i]!);
        const fresh = comparable(analyseCatalog(sub, RANKER_DEFAULTS));
        const state = analyseCatalog(docs, RANKER_DEFAULTS);
        const derived = subsetLexicalState(state, sub, keep, RANKER_DEFAULTS);
        expect(comparable(derived)).toEqual(fresh);
        const decoded = decodeLexicalState(encodeLexicalState(state), docs.length);
        expect(comparable(subsetLexicalState(decoded, sub, keep, RANKER_DEFAULTS))).toEqual(fresh);
        // A subset of a subset, through its own snapshot (its words are not the typo dictionary's).
        const half = keep.filter((_, k) => k % 2 === 0);
        const inner = half.map((i) => docs[i]!);
        const again = decodeLexicalState(encodeLexicalState(derived), sub.length);
        const innerKeep = keep.flatMap((i, k) => (half.includes(i) ? [k] : []));
        expect(comparable(subsetLexicalState(again, inner, innerKeep, RANKER_DEFAULTS))).toEqual(
          comparable(analyseCatalog(inner, RANKER_DEFAULTS)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('answers every query as an index built on the subset alone', () => {
    const queries = ['read files', 'wether forecast', 'send emial', 'gh createIssue', '天气', 'café'];
    fc.assert(
      fc.property(subsetArb, ([raw, kept]) => {
        const docs = toDocs(raw);
        const keep = kept.flatMap((k, i) => (k ? [i] : []));
        const sub = keep.map((i) => docs[i]!);
        const state = buildSearchIndex(docs).lexicalState;
        const derived = buildSearchIndex(sub, {}, subsetLexicalState(state, sub, keep, RANKER_DEFAULTS));
        const alone = buildSearchIndex(sub);
        for (const q of queries)
          expect(derived.search(q, { limit: 50 })).toEqual(alone.search(q, { limit: 50 }));
      }),
      { numRuns: 100 },
    );
  });
});
