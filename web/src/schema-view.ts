/**
 * A JSON Schema shown as a list of fields (name, type, required, description, allowed values).
 * Schemas come from upstream servers, so they may be huge, cyclic in spirit or hostile: depth and
 * width are capped, and everything is rendered as text.
 */
import { badge, h } from './dom.js';

export type Schema = Record<string, unknown>;
const MAX_DEPTH = 4; // nested objects shown; deeper ones say "object"
const MAX_FIELDS = 100; // per level; the rest are counted, not listed
const MAX_VALUE = 80; // characters of an enum value or default shown

/** The schema's object form, or null for anything that is not a plain object. */
export function asSchema(v: unknown): Schema | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : null;
}

/** A short type label: `string (uri)`, `array of number`, `string | null`, `one of 3`. */
export function typeLabel(s: Schema): string {
  const t = s.type;
  if (Array.isArray(t)) return t.map(String).join(' | ');
  if (t === 'array') {
    const items = asSchema(s.items);
    return items ? `array of ${typeLabel(items)}` : 'array';
  }
  if (typeof t === 'string') return typeof s.format === 'string' ? `${t} (${s.format})` : t;
  const alts = s.anyOf ?? s.oneOf;
  if (Array.isArray(alts)) return alts.map((a) => typeLabel(asSchema(a) ?? {})).join(' | ');
  if (Array.isArray(s.enum)) return 'enum';
  if (typeof s.$ref === 'string') return s.$ref.replace(/^#\/(\$defs|definitions)\//, '');
  return 'any';
}

/** A value as short text for enum lists and defaults. */
export function shortValue(v: unknown): string {
  const text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

/** The fields of an object schema as a list; a note when the schema takes no named fields. */
export function schemaFields(schema: unknown, depth = 0): HTMLElement {
  const s = asSchema(schema);
  const props = asSchema(s?.properties);
  if (!s || !props || Object.keys(props).length === 0) {
    return h('p', { class: 'muted' }, s && s.type !== 'object' ? `Takes ${typeLabel(s)}.` : 'No inputs.');
  }
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const names = Object.keys(props);
  const items = names
    .slice(0, MAX_FIELDS)
    .map((name) => field(name, asSchema(props[name]) ?? {}, required.has(name), depth));
  const rest = names.length - MAX_FIELDS;
  return h(
    'ul',
    { class: 'fields' },
    items,
    rest > 0 ? h('li', { class: 'muted' }, `… and ${rest} more fields`) : null,
  );
}

function field(name: string, s: Schema, required: boolean, depth: number): HTMLElement {
  const nested = nestedObject(s);
  return h(
    'li',
    {},
    h('code', { class: 'field-name' }, name),
    ' ',
    h('span', { class: 'field-type' }, typeLabel(s)),
    required ? badge('required', 'warn') : null,
    typeof s.description === 'string' ? h('p', { class: 'field-desc' }, s.description) : null,
    Array.isArray(s.enum)
      ? h('p', { class: 'field-extra' }, 'One of: ', s.enum.map(shortValue).join(', '))
      : null,
    s.default !== undefined ? h('p', { class: 'field-extra' }, 'Default: ', shortValue(s.default)) : null,
    nested && depth < MAX_DEPTH ? schemaFields(nested, depth + 1) : null,
  );
}

/** The object schema whose fields a nested list should show: the field's own, or its items'. */
function nestedObject(s: Schema): Schema | null {
  if (asSchema(s.properties)) return s;
  const items = asSchema(s.items);
  return items && asSchema(items.properties) ? items : null;
}
