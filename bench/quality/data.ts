// Loading the shared evaluation data (../shared/bench) into SearchDocs and query sets.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchDoc } from '../../src/search/index.js';

/** A catalog entry in the bench format. */
export interface BenchTool {
  server: string;
  name: string;
  description?: string | null;
  inputSchema?: { properties?: Record<string, unknown> } | null;
  server_description?: string;
}

/** A labelled query in the bench format. */
export interface BenchQuery {
  id: string;
  query: string;
  relevant_groups: string[][];
  steps?: string[];
}

/** Queries are cut to this length, as the bench README advises (one embeds a base64 image). */
export const MAX_QUERY_CHARS = 1000;

/** Fail with a clear message when the shared data is not where the README says. */
export function requireBenchDir(dir: string): string {
  const probe = join(dir, 'catalog-livemcpbench.json');
  if (!existsSync(probe)) {
    throw new Error(
      `bench data not found: expected ${probe} (the shared data lives in ../shared/bench next to the project root; pass --data DIR to point elsewhere)`,
    );
  }
  return dir;
}

/** Parse one JSON file of the bench directory. */
export function loadJson<T>(dir: string, file: string): T {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
}

/** The tool id: server + "/" + name. */
export function toolId(t: BenchTool): string {
  return `${t.server}/${t.name}`;
}

/** The server of an id; ids are split on the LAST "/" because Smithery server ids contain "/". */
export function serverOf(id: string): string {
  return id.slice(0, id.lastIndexOf('/'));
}

/** Convert a bench tool to a SearchDoc; server descriptions only when asked (only some catalogs have them). */
export function toSearchDoc(t: BenchTool, withServerDescription = false): SearchDoc {
  const doc: SearchDoc = {
    key: toolId(t),
    server: t.server,
    name: t.name,
    description: t.description ?? '',
    paramNames: Object.keys(t.inputSchema?.properties ?? {}),
  };
  if (withServerDescription && t.server_description) doc.serverDescription = t.server_description;
  return doc;
}

/** Cut a query to MAX_QUERY_CHARS. */
export function truncate(q: string): string {
  return q.length > MAX_QUERY_CHARS ? q.slice(0, MAX_QUERY_CHARS) : q;
}

/** Every `every`-th item starting at 0: a deterministic sample. */
export function sampleEvery<T>(items: readonly T[], every: number): T[] {
  return items.filter((_, i) => i % every === 0);
}
