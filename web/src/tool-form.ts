/** The form that calls a tool: one input per top-level field, or one JSON box when there are none. */
import { api, toolPath, type CallResult } from './api.js';
import { badge, h } from './dom.js';
import { asSchema, typeLabel, type Schema } from './schema-view.js';

interface Field {
  name: string;
  read: () => unknown; // undefined = leave the argument out
}

/** The call form for `key`; results and errors appear under it. */
export function toolForm(key: string, inputSchema: unknown, destructive: boolean): HTMLFormElement {
  const s = asSchema(inputSchema);
  const props = asSchema(s?.properties);
  const required = new Set(Array.isArray(s?.required) ? s.required.map(String) : []);
  const fields: Field[] = [];
  const rows: HTMLElement[] = [];
  if (props && Object.keys(props).length > 0) {
    for (const [name, raw] of Object.entries(props)) {
      const [row, f] = input(name, asSchema(raw) ?? {}, required.has(name));
      rows.push(row);
      fields.push(f);
    }
  } else {
    const [row, f] = jsonInput('arguments', 'Arguments (a JSON object)', false);
    rows.push(row);
    fields.push({ name: '', read: f.read });
  }
  const out = h('div', { class: 'call-result', 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: destructive ? 'danger' : 'primary' }, 'Call tool');
  const form = h('form', { class: 'tool-form' }, rows, h('div', {}, submit), out);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    let args: Record<string, unknown>;
    try {
      args = collect(fields);
    } catch (err) {
      out.replaceChildren(h('p', { class: 'error', role: 'alert' }, (err as Error).message));
      return;
    }
    out.replaceChildren(); // an earlier error must not stay as if it were this attempt's answer
    if (destructive && !confirm(`${key} is marked destructive. Call it?`)) return;
    submit.disabled = true;
    out.replaceChildren(h('p', { class: 'muted' }, 'Calling…'));
    api<CallResult>('POST', `/tools/${toolPath(key)}/call`, { arguments: args })
      .then((r) => out.replaceChildren(...renderResult(r)))
      .catch((err: unknown) =>
        out.replaceChildren(h('p', { class: 'error', role: 'alert' }, String((err as Error).message))),
      )
      .finally(() => (submit.disabled = false));
  });
  return form;
}

function collect(fields: Field[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const f of fields) {
    const v = f.read();
    if (v === undefined) continue;
    if (f.name === '') {
      if (asSchema(v) === null) throw new Error('Arguments must be a JSON object.');
      Object.assign(args, v);
    } else args[f.name] = v;
  }
  return args;
}

let nextId = 0;

function input(name: string, s: Schema, required: boolean): [HTMLElement, Field] {
  const id = `f${nextId++}`;
  const label = h(
    'label',
    { for: id },
    h('code', {}, name),
    ' ',
    h('span', { class: 'field-type' }, typeLabel(s)),
    required ? badge('required', 'warn') : null,
  );
  const common = { id, name, required };
  const t = s.type;
  if (Array.isArray(s.enum) && s.enum.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    const values = s.enum as (string | number | boolean)[];
    const select = h(
      'select',
      common,
      h('option', { value: '' }, '—'),
      values.map((v, i) => h('option', { value: i }, String(v))),
    );
    return [
      h('div', { class: 'form-row' }, label, select),
      { name, read: () => (select.value === '' ? undefined : values[Number(select.value)]) },
    ];
  }
  if (t === 'boolean') {
    const select = h(
      'select',
      common,
      h('option', { value: '' }, '—'),
      h('option', { value: 'true' }, 'true'),
      h('option', { value: 'false' }, 'false'),
    );
    return [
      h('div', { class: 'form-row' }, label, select),
      { name, read: () => (select.value === '' ? undefined : select.value === 'true') },
    ];
  }
  if (t === 'number' || t === 'integer') {
    const el = h('input', { ...common, type: 'number', step: t === 'integer' ? 1 : 'any' });
    return [
      h('div', { class: 'form-row' }, label, el),
      { name, read: () => (el.value === '' ? undefined : Number(el.value)) },
    ];
  }
  if (t === 'string') {
    const el = h('input', { ...common, type: 'text', autocomplete: 'off' });
    return [
      h('div', { class: 'form-row' }, label, el),
      { name, read: () => (el.value === '' ? undefined : el.value) },
    ];
  }
  return jsonInput(name, label, required);
}

function jsonInput(name: string, label: HTMLElement | string, required: boolean): [HTMLElement, Field] {
  const id = `f${nextId++}`;
  const el = h('textarea', { id, name, rows: 3, required, placeholder: 'JSON', spellcheck: 'false' });
  const read = (): unknown => {
    if (el.value.trim() === '') return undefined;
    try {
      return JSON.parse(el.value) as unknown;
    } catch {
      throw new Error(`${name} is not valid JSON.`);
    }
  };
  return [h('div', { class: 'form-row' }, h('label', { for: id }, label), el), { name, read }];
}

/** A call's result: its content items as text (images as images), then any structured content. */
export function renderResult(r: CallResult): Node[] {
  const nodes: Node[] = [h('h3', {}, 'Result ', r.isError ? badge('error', 'danger') : badge('ok', 'ok'))];
  for (const item of r.content ?? []) {
    if (item.type === 'text') nodes.push(h('pre', { class: 'output' }, item.text ?? ''));
    else if (
      item.type === 'image' &&
      typeof item.data === 'string' &&
      /^image\/[a-z+.-]+$/.test(item.mimeType ?? '')
    ) {
      nodes.push(
        h('img', {
          class: 'output-image',
          alt: 'image returned by the tool',
          src: `data:${item.mimeType};base64,${item.data}`,
        }),
      );
    } else nodes.push(h('pre', { class: 'output' }, JSON.stringify(item, null, 2)));
  }
  if (r.structuredContent !== undefined) {
    nodes.push(
      h('h4', {}, 'Structured content'),
      h('pre', { class: 'output' }, JSON.stringify(r.structuredContent, null, 2)),
    );
  }
  return nodes;
}
