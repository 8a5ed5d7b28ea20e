/** The audit log under #/activity (admin): filters in the hash, pages with a cursor, a JSONL download. */
import { api, apiBlob, query, type AuditRow } from '../api.js';
import { badge, h } from '../dom.js';
import { AUDIT_OUTCOMES, type ActivityFilters } from '../router.js';
import { runAction, statusLine } from './common.js';

const PAGE = 50;
const SINCE = [
  ['', 'any time'],
  ['1h', 'last hour'],
  ['24h', 'last 24 hours'],
  ['7d', 'last 7 days'],
] as const;

/** The audit heading, filter form, first page of rows, a "More" button and the download button. */
export async function auditSection(f: ActivityFilters, project: string): Promise<Node[]> {
  const filters = { tool: f.tool, outcome: f.outcome, subject: f.subject, since: f.since };
  const first = await api<{ rows: AuditRow[]; next: string | null }>(
    'GET',
    `/audit${query({ ...filters, limit: PAGE })}`,
  );
  const list = h('ol', { class: 'audit' });
  const status = statusLine();
  const more = h('button', { type: 'button' }, 'More');
  let next = first.next;
  const show = (rows: AuditRow[]) => {
    list.append(...rows.map(auditItem));
    more.hidden = next === null;
  };
  more.addEventListener('click', () => {
    void runAction(more, status, async () => {
      const page = await api<{ rows: AuditRow[]; next: string | null }>(
        'GET',
        `/audit${query({ ...filters, limit: PAGE, cursor: next ?? undefined })}`,
      );
      next = page.next;
      show(page.rows);
      return `${list.children.length} rows shown.`;
    });
  });
  show(first.rows);
  const download = h('button', { type: 'button' }, 'Download JSONL');
  download.addEventListener('click', () => {
    void runAction(download, status, async () => {
      const blob = await apiBlob(`/audit/export${query(filters)}`);
      saveFile(blob, `carte-audit-${project}.jsonl`);
      return 'Downloaded.';
    });
  });
  return [
    h('h2', {}, 'Audit log'),
    filterForm(f, project),
    h('div', { class: 'actions' }, download),
    status,
    first.rows.length
      ? list
      : h('p', { class: 'muted' }, 'No audit rows match: widen the filters, or make a call.'),
    h('div', { class: 'actions' }, more),
  ];
}

function filterForm(f: ActivityFilters, project: string): HTMLFormElement {
  const tool = h('input', { name: 'tool', value: f.tool, placeholder: 'server/tool', autocomplete: 'off' });
  const subject = h('input', {
    name: 'subject',
    value: f.subject,
    placeholder: 'a person (sub)',
    autocomplete: 'off',
  });
  const outcome = h(
    'select',
    { name: 'outcome' },
    h('option', { value: '' }, 'any'),
    AUDIT_OUTCOMES.map((o) => h('option', { value: o, ...(o === f.outcome ? { selected: true } : {}) }, o)),
  );
  const since = h(
    'select',
    { name: 'since' },
    SINCE.map(([v, t]) => h('option', { value: v, ...(v === f.since ? { selected: true } : {}) }, t)),
  );
  // A token belongs to one project: the only project it may read is its own.
  const projectBox = h('select', { name: 'project', disabled: true }, h('option', {}, project));
  const field = (text: string, control: HTMLElement) => h('label', {}, h('span', {}, text), control);
  return h(
    'form',
    {
      class: 'filters',
      'aria-label': 'Audit filters',
      onsubmit: (e: Event) => {
        e.preventDefault();
        const range = f.range === 'hour' ? '' : f.range;
        const chosen = { tool: tool.value.trim(), outcome: outcome.value, subject: subject.value.trim() };
        location.hash = `#/activity${query({ range, ...chosen, since: since.value })}`;
      },
    },
    field('Project', projectBox),
    field('Tool', tool),
    field('Outcome', outcome),
    field('Subject', subject),
    field('Time', since),
    h('button', { type: 'submit', class: 'primary' }, 'Filter'),
  );
}

function auditItem(r: AuditRow): HTMLElement {
  const tone = r.outcome === 'ok' ? 'ok' : r.outcome === 'started' ? 'neutral' : 'danger';
  // A failed call's detail is the message its caller got (docs/security.md); a tool's own error
  // answer (tool_error) is its result, which the audit does not keep.
  const message = r.kind === 'call' && tone === 'danger' ? r.detail : null;
  return h(
    'li',
    { class: 'audit-row' },
    h('time', { datetime: r.at }, r.at.slice(0, 19).replace('T', ' ')),
    h('span', { class: 'audit-kind' }, r.kind),
    r.key ? h('code', {}, r.key) : r.detail ? h('span', { class: 'muted' }, r.detail) : null,
    badge(r.outcome, tone),
    h('span', { class: 'muted' }, `${Math.round(r.durationMs)} ms · ${r.subject ?? r.tokenId ?? 'local'}`),
    message ? h('p', { class: 'audit-message' }, message) : null,
  );
}

/** Saves `blob` as a file: a link to an object URL, clicked once (the bearer token cannot ride a plain link). */
function saveFile(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
