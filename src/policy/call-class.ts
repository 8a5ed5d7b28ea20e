// Call classes (issue 15, item 4): what a call may do, read < write < destructive, from the
// tool's annotations. Annotations are the upstream's untrusted hints, so how far they are believed
// is the operator's choice per server (`trusted`), and a rule's `class` overrides both.
import type { CallClass } from '../config/index.js';

interface Hints {
  readOnlyHint?: unknown;
  destructiveHint?: unknown;
}

/**
 * - a rule's class wins;
 * - `trusted: false`: every tool is destructive, whatever it claims;
 * - otherwise `readOnlyHint: true` is read; `destructiveHint: false` is write; anything else is
 *   destructive (the spec's default for a missing hint), except that `trusted: true` reads a
 *   missing destructive hint as write.
 */
export function callClass(
  annotations: unknown,
  trusted: boolean | undefined,
  ruleClass?: CallClass,
): CallClass {
  if (ruleClass !== undefined) return ruleClass;
  if (trusted === false) return 'destructive';
  const h = (annotations && typeof annotations === 'object' ? annotations : {}) as Hints;
  if (h.readOnlyHint === true) return 'read';
  if (h.destructiveHint === false) return 'write';
  if (h.destructiveHint === undefined && trusted === true) return 'write';
  return 'destructive';
}
