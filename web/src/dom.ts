/**
 * Building DOM nodes without HTML strings: every string becomes a text node, so a hostile tool
 * description or schema from an upstream server can never become markup.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Listener = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | null | undefined | Listener>;

/** An element with attributes (`onclick` style keys become listeners) and text or node children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) {
      // Links are only ever our own hash routes; refuse anything else rather than trust a caller.
      if (name === 'href' && !String(value).startsWith('#')) throw new Error(`refused href ${String(value)}`);
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends children, flattening arrays and skipping empty values. */
export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** A small label such as "read-only" or "destructive"; `tone` picks its colour. */
export function badge(text: string, tone = 'neutral'): HTMLElement {
  return h('span', { class: `badge badge-${tone}` }, text);
}

/** The hash link for a route made of path segments, each encoded. */
export function route(...segments: string[]): string {
  return `#/${segments.map(encodeURIComponent).join('/')}`;
}

/** A short "3 minutes ago" style age for an ISO time, with the exact time left to the title. */
export function timeAgo(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 60) return 'just now';
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return iso;
}
