import { SERVER_ID_PATTERN } from './schema.js';

/** True when `id` may name a server (`[a-z0-9][a-z0-9_-]*`). */
export function isServerId(id: string): boolean {
  return SERVER_ID_PATTERN.test(id);
}

/**
 * The nearest valid id: lower-cased, each run of other characters turned into one `-`, leading
 * `-`/`_` and trailing `-` dropped. `"GitHub Tools"` becomes `"github-tools"`; empty if nothing is left.
 */
export function normaliseServerId(id: string): string {
  return id
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .replace(/-+$/, '');
}

/** The message for an id that breaks the rule, with the nearest valid id when there is one. */
export function badIdMessage(id: string): string {
  const near = normaliseServerId(id);
  const hint = near === '' ? '' : `, e.g. ${JSON.stringify(near)}`;
  return `invalid server id ${JSON.stringify(id)}; use lower-case letters, digits, "-" and "_", starting with a letter or digit${hint}`;
}
