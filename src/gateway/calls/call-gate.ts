// The call-class gate (issue 15, item 4): a project may deny call classes outright or ask a
// person to confirm each call of them. Confirmation goes through the face (MCP elicitation when
// the client declared it); without a way to ask, the call is refused with how to allow it.
import type { CallClass } from '../../config/index.js';
import { CarteError, quote } from '../../errors.js';
import type { GatewayProject } from '../access/projects.js';

/** Asks the person behind the client to confirm; resolves true only on an explicit yes. */
export type Confirm = (message: string) => Promise<boolean>;

export async function gateCall(
  project: GatewayProject,
  key: string,
  cls: CallClass,
  confirm: Confirm | undefined,
): Promise<void> {
  if (project.deny.includes(cls)) {
    throw new CarteError(
      'denied',
      `${quote(key)} is a ${cls} tool and project ${quote(project.id)} may not call ${cls} tools`,
      {
        operatorMessage: `${quote(key)} is a ${cls} tool and project ${quote(project.id)} denies ${cls} calls (projects.${project.id}.deny); remove "${cls}" there, or set the tool's class with a rule, to allow it`,
      },
    );
  }
  if (!project.confirm.includes(cls)) return;
  if (!confirm) {
    throw new CarteError(
      'denied',
      `${quote(key)} is a ${cls} tool: project ${quote(project.id)} needs a person to confirm each such call, and this client cannot ask (it does not support elicitation); use a client that does, or ask the operator to remove "${cls}" from projects.${project.id}.confirm`,
    );
  }
  const ok = await confirm(`Allow a ${cls} call of ${key}?`).catch(() => false);
  if (!ok) throw new CarteError('denied', `the call of ${quote(key)} was not confirmed`);
}
