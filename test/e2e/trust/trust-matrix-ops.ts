import type { Client } from '@modelcontextprotocol/client';
import { CATEGORY_IDS } from '../../../src/gateway/index.js';

// The requests of the trust matrix: every meta-tool and pass-through an agent can send, naming
// every key, server, resource and prompt of the whole catalog (visible or not) and near misses.

/** One agent request; `input` is what the caller typed, masked in answers before the leak grep. */
export interface Op {
  label: string;
  /** What the caller typed (a key, URI or name, and its server part), masked before the leak grep. */
  inputs?: string[];
  /** Search: the order among near-equal results may follow the shared index (docs/security.md). */
  unordered?: boolean;
  send(client: Client, meta: Record<string, unknown> | undefined): Promise<unknown>;
  /** A call_tool's arguments: also sent down the faces' plain-call path (plainCallTool). */
  plainArgs?: Record<string, unknown>;
}

export interface Catalog {
  keys: readonly string[];
  servers: readonly string[];
  resources: readonly string[];
  prompts: readonly string[];
  /** Resource template URIs, as listed (completion/complete's `ref/resource`). */
  templates: readonly string[];
}

const tool = (name: string, args: Record<string, unknown>) => (c: Client, meta?: Record<string, unknown>) =>
  c.request({ method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } });

/** Every page of a browse, following nextCursor (cursors are part of the compared answer). */
function browseAll(args: Record<string, unknown>) {
  return async (c: Client, meta?: Record<string, unknown>) => {
    const pages: unknown[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const r = (await tool('browse_tools', cursor ? { ...args, cursor } : args)(c, meta)) as {
        structuredContent?: { nextCursor?: string };
      };
      pages.push(r);
      cursor = r.structuredContent?.nextCursor;
      if (!cursor) break;
    }
    return pages;
  };
}

const serverOf = (name: string) => name.slice(0, Math.max(0, name.indexOf('/')));

/** A near miss of a key or id: one character short. */
const nearMiss = (s: string) => s.slice(0, -1);

export function buildOps(cat: Catalog): Op[] {
  const ops: Op[] = [
    {
      label: 'tools/list',
      send: (c, meta) => c.request({ method: 'tools/list', params: meta ? { _meta: meta } : {} }),
    },
    { label: 'browse {}', send: browseAll({}) },
    { label: 'browse bad cursor', send: browseAll({ cursor: '0.abc.x' }) },
    {
      label: 'resources/list',
      send: (c, meta) => c.request({ method: 'resources/list', params: meta ? { _meta: meta } : {} }),
    },
    {
      label: 'prompts/list',
      send: (c, meta) => c.request({ method: 'prompts/list', params: meta ? { _meta: meta } : {} }),
    },
  ];
  for (const category of [...CATEGORY_IDS, 'nope'])
    ops.push({ label: `browse category ${category}`, send: browseAll({ category }) });
  const serverIds = [...cat.servers, ...cat.servers.map(nearMiss), 'nope7'];
  for (const server of serverIds) {
    ops.push({ label: `browse server ${server}`, inputs: [server], send: browseAll({ server }) });
    ops.push({
      label: `search in server ${server}`,
      inputs: [server],
      unordered: true,
      send: tool('search_tools', { query: 'list read create', server, limit: 50 }),
    });
    ops.push({
      label: `search for server ${server}`,
      unordered: true,
      send: tool('search_tools', { query: server, limit: 50 }),
    });
  }
  const names = [...new Set(cat.keys.map((k) => k.slice(k.indexOf('/') + 1)))];
  for (const name of names) {
    // A query that names the tool, alone and as a step of a multi-step query.
    ops.push({
      label: `search ${name}`,
      unordered: true,
      send: tool('search_tools', { query: name, limit: 50 }),
    });
    ops.push({
      label: `search steps ${name}`,
      unordered: true,
      send: tool('search_tools', { query: [name.replace(/[-_]/g, ' '), 'echo'], limit: 50 }),
    });
  }
  const keys = [...cat.keys, ...cat.keys.map(nearMiss), ...cat.servers.map((s) => `${s}/nope`)];
  for (const key of keys) {
    ops.push({
      label: `describe ${key}`,
      inputs: [key, serverOf(key)],
      send: tool('describe_tool', { key }),
    });
    ops.push({
      label: `describe ${key} maxTokens`,
      inputs: [key, serverOf(key)],
      send: tool('describe_tool', { key, maxTokens: 60 }),
    });
    // Arguments that are not an object never reach an upstream, visible tool or not.
    ops.push({
      label: `call ${key}`,
      inputs: [key, serverOf(key)],
      send: tool('call_tool', { key, arguments: 'x' }),
      plainArgs: { key, arguments: 'x' },
    });
  }
  const uris = [...cat.resources, ...cat.servers.map((s) => `carte://${s}/nope%3A%2F%2Fx`)];
  for (const uri of uris)
    ops.push({
      label: `read ${uri}`,
      inputs: [uri, uri.split('/')[2]!],
      send: (c, meta) =>
        c.request({ method: 'resources/read', params: { uri, ...(meta ? { _meta: meta } : {}) } }),
    });
  for (const name of [...cat.prompts, ...cat.servers.map((s) => `${s}/nope`)])
    ops.push({
      label: `prompt ${name}`,
      inputs: [name, serverOf(name)],
      send: (c, meta) =>
        c.request({
          method: 'prompts/get',
          params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
        }),
    });
  ops.push(...completionOps(cat), ...scriptOps(cat, keys));
  return ops;
}

/** `completion/complete` for every prompt and resource template, visible or not, and a made-up one per server. */
function completionOps(cat: Catalog): Op[] {
  const complete = (ref: Record<string, string>) => (c: Client, meta?: Record<string, unknown>) =>
    c.request({
      method: 'completion/complete',
      params: { ref, argument: { name: 'department', value: 'E' }, ...(meta ? { _meta: meta } : {}) },
    });
  const prompts = [...cat.prompts, ...cat.servers.map((s) => `${s}/nope`)].map((name): Op => ({
    label: `complete prompt ${name}`,
    inputs: [name, serverOf(name)],
    send: complete({ type: 'ref/prompt', name }),
  }));
  const templates = [...cat.templates, ...cat.servers.map((s) => `carte://${s}/nope%3A%2F%2F{x}`)].map(
    (uri): Op => ({
      label: `complete template ${uri}`,
      inputs: [uri, uri.split('/')[2]!],
      send: complete({ type: 'ref/resource', uri }),
    }),
  );
  return [...prompts, ...templates];
}

/**
 * run_code (issue 43): each key called from inside a script (its refusal caught and returned, so
 * the answer shows what the script saw), and a search from inside a script per server id. A
 * token without the `call` scope is refused run_code itself, as the oracle refuses it.
 */
function scriptOps(cat: Catalog, keys: readonly string[]): Op[] {
  const run = (code: string) => tool('run_code', { code });
  const calls = keys.map((key): Op => ({
    label: `run_code call ${key}`,
    inputs: [key, serverOf(key)],
    // Arguments that are not an object: a visible tool is refused before its upstream too.
    send: run(
      `try { return await call(${JSON.stringify(key)}, 'x'); } catch (e) { return { code: e.code, message: e.message }; }`,
    ),
  }));
  const searches = cat.servers.map((server): Op => ({
    label: `run_code search ${server}`,
    inputs: [server],
    send: run(
      `return (await search(${JSON.stringify(`${server} list read create`)}, { limit: 50 })).map((r) => r.key).sort();`,
    ),
  }));
  return [...calls, ...searches];
}

/**
 * What a request answered, as text, success or failure. Discovery times differ between two
 * stores and relevance is scored with the shared index's statistics: both are masked; search
 * results are sorted by key when the op is unordered.
 */
export async function answerOf(op: Op, send: () => Promise<unknown>): Promise<{ raw: string; norm: string }> {
  let value: unknown;
  try {
    value = await send();
  } catch (err) {
    const text = `error ${String((err as { code?: unknown }).code)}: ${(err as Error).message}`;
    return { raw: text, norm: text };
  }
  const raw = JSON.stringify(value);
  if (op.unordered) value = sortResults(value);
  const norm = JSON.stringify(value)
    .replace(/"(first|last)SeenAt":"[^"]*"/g, '"$1SeenAt":"-"')
    .replace(/\\"(first|last)SeenAt\\":\\"[^"\\]*\\"/g, '"$1SeenAt":"-"')
    .replace(/\\?"relevance\\?":[0-9.e-]+/g, '"relevance":0');
  return { raw, norm };
}

function sortResults(value: unknown): unknown {
  const r = value as { content?: { text: string }[]; structuredContent?: { results?: { key: string }[] } };
  const results = r.structuredContent?.results;
  if (!results) return value;
  const sorted = [...results].sort((a, b) => (a.key < b.key ? -1 : 1));
  return {
    ...r,
    content: [{ type: 'text', text: '-' }],
    structuredContent: { ...r.structuredContent, results: sorted },
  };
}
