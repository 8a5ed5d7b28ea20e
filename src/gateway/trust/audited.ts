// Search, browse and describe, timed and written to the audit log with their outcome, whether
// they answer or throw (a denied or unknown request is an event too).
import { toCarteError } from '../../errors.js';
import type { AuditEvent, AuditLog } from './audit.js';
import type { CallerContext } from '../access/context.js';

type What = Omit<AuditEvent, 'outcome' | 'durationMs'>;

export function audited<T>(log: AuditLog, ctx: CallerContext, what: What, fn: () => T): T {
  const start = performance.now();
  const done = (outcome: AuditEvent['outcome']) =>
    log.event(ctx, { ...what, outcome, durationMs: performance.now() - start });
  let result: T;
  try {
    result = fn();
  } catch (err) {
    done(toCarteError(err).code);
    throw err;
  }
  if (result instanceof Promise) {
    return result.then(
      (v: unknown) => (done('ok'), v),
      (err: unknown) => {
        done(toCarteError(err).code);
        throw err;
      },
    ) as T;
  }
  done('ok');
  return result;
}
