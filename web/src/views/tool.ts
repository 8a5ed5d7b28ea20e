/** One tool's page: what it does, what it takes, and a form to call it. */
import { api, toolPath, type ToolDetail } from '../api.js';
import { badge, h, route } from '../dom.js';
import { schemaFields } from '../schema-view.js';
import { toolForm } from '../tool-form.js';
import { hasScope, splitKey, type ViewContext } from './common.js';

/** The call class: the API's `class` when it sends one, else the tool's own annotations. */
export function callClass(t: ToolDetail): 'read' | 'write' | 'destructive' {
  if (t.class === 'read' || t.class === 'write' || t.class === 'destructive') return t.class;
  const a = t.annotations ?? {};
  if (a.readOnlyHint === true) return 'read';
  // MCP's default for destructiveHint is true when the tool is not read-only.
  return a.destructiveHint === false ? 'write' : 'destructive';
}

/** Renders `#/tool/<server>/<name>`. */
export async function toolView(key: string, ctx: ViewContext): Promise<Node[]> {
  const t = await api<ToolDetail>('GET', `/tools/${toolPath(key)}`);
  const [server, name] = splitKey(t.key);
  const cls = callClass(t);
  const badges = [
    cls === 'read'
      ? badge('read-only', 'ok')
      : cls === 'destructive'
        ? badge('destructive', 'danger')
        : badge('writes', 'warn'),
    t.annotations?.openWorldHint === true ? badge('open world', 'neutral') : null,
    t.category
      ? h('a', { href: route('category', t.category), class: 'badge badge-accent' }, t.category)
      : null,
    (t.tags ?? []).map((tag) => badge(tag)),
  ];
  const canCall = hasScope(ctx.me, 'call');
  return [
    h('p', { class: 'crumbs' }, h('a', { href: route('server', server) }, server), ' / ', name),
    h('h1', { tabindex: -1 }, t.title ?? name),
    h('p', { class: 'tool-key' }, h('code', {}, t.key), ' ', badges),
    t.description
      ? h('p', { class: 'description' }, t.description)
      : h('p', { class: 'muted' }, 'No description.'),
    h('h2', {}, 'Inputs'),
    schemaFields(t.inputSchema),
    ...(t.outputSchema ? [h('h2', {}, 'Output'), schemaFields(t.outputSchema)] : []),
    ...(t.signature
      ? [
          h('h2', {}, 'In a script'),
          h('p', { class: 'muted' }, 'As run_code calls it, typed from its schemas:'),
          h('pre', { class: 'signature' }, h('code', { class: 'language-ts' }, t.signature)),
        ]
      : []),
    h('h2', {}, 'Call it'),
    canCall
      ? toolForm(t.key, t.inputSchema, cls === 'destructive')
      : h('p', { class: 'muted' }, 'Calling a tool needs a token with the call or admin scope.'),
  ];
}
