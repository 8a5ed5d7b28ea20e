/** Pending server proposals and quarantined tools, with approve / reject buttons (admin scope). */
import { api, toolPath, type ApproveResult, type Proposal, type Quarantined } from '../api.js';
import { h, timeAgo } from '../dom.js';
import { runAction, statusLine, type ViewContext } from './common.js';

/** Renders `#/approvals`. */
export async function approvalsView(ctx: ViewContext): Promise<Node[]> {
  const { proposals, quarantined } = await api<{ proposals: Proposal[]; quarantined: Quarantined[] }>(
    'GET',
    '/approvals',
  );
  const status = statusLine();
  const act = (
    label: string,
    path: string,
    done: string,
    cls = '',
    body?: () => unknown,
  ): HTMLButtonElement => {
    const b = h('button', { type: 'button', class: cls }, label);
    b.addEventListener('click', () => {
      void runAction(b, status, async () => {
        const answer = await api<ApproveResult>('POST', `/approvals/${path}`, body?.());
        const message = `${done}${discovered(answer)}`;
        ctx.rerender(message);
        return message;
      });
    });
    return b;
  };
  const proposalItems = proposals.map((p) => {
    // Each host asked for is a box, unticked: a registered server gets only the hosts ticked here.
    const boxes = (p.network ?? []).map((host) => h('input', { type: 'checkbox', value: host }));
    const grant = () => ({ network: boxes.filter((b) => b.checked).map((b) => b.value) });
    return h(
      'li',
      { class: 'approval' },
      h('h3', {}, p.server),
      h(
        'p',
        { class: 'muted' },
        `${p.id} · from ${p.source} · `,
        h('span', { title: p.createdAt }, timeAgo(p.createdAt)),
      ),
      p.target ? h('pre', { class: 'target' }, p.target) : null,
      h(
        'div',
        { class: 'grant' },
        boxes.length
          ? [
              h('p', {}, 'Runs sandboxed. It asks to reach (tick what to grant):'),
              ...boxes.map((b) => h('label', {}, b, ` ${b.value}`)),
            ]
          : h('p', { class: 'muted' }, 'Runs sandboxed, with no network.'),
      ),
      p.problems?.length
        ? h(
            'ul',
            { class: 'problems' },
            p.problems.map((x) => h('li', {}, typeof x === 'string' ? x : `${x.path}: ${x.message}`)),
          )
        : null,
      h(
        'div',
        { class: 'actions' },
        act(
          'Approve',
          `proposals/${encodeURIComponent(p.id)}/approve`,
          `Approved ${p.server}.`,
          'primary',
          grant,
        ),
        act('Reject', `proposals/${encodeURIComponent(p.id)}/reject`, `Rejected ${p.server}.`, 'danger'),
      ),
    );
  });
  const quarantineItems = quarantined.map((q) =>
    h(
      'li',
      { class: 'approval' },
      h('h3', {}, h('code', {}, q.key)),
      h(
        'p',
        {},
        q.reason,
        q.since ? h('span', { class: 'muted', title: q.since }, ` · ${timeAgo(q.since)}`) : null,
      ),
      q.diff === undefined
        ? null
        : h('pre', { class: 'diff' }, typeof q.diff === 'string' ? q.diff : JSON.stringify(q.diff, null, 2)),
      h(
        'div',
        { class: 'actions' },
        act('Approve', `tools/${toolPath(q.key)}/approve`, `Approved ${q.key}.`, 'primary'),
      ),
    ),
  );
  return [
    h('h1', { tabindex: -1 }, 'Approvals'),
    status,
    h('h2', {}, 'Pending servers'),
    proposalItems.length
      ? h('ul', { class: 'approvals' }, proposalItems)
      : h('p', { class: 'muted' }, 'Nothing waits.'),
    h('h2', {}, 'Quarantined tools'),
    quarantineItems.length
      ? h('ul', { class: 'approvals' }, quarantineItems)
      : h('p', { class: 'muted' }, 'None.'),
  ];
}

/** What discovery found after an approval, as the end of the status sentence. */
function discovered(r: ApproveResult): string {
  const d = r.discovery;
  if (!d) return '';
  return d.status === 'success'
    ? ` Discovered ${d.toolCount} tools.`
    : ` Discovery failed: ${d.error ?? 'unknown error'}`;
}
