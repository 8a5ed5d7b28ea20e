// `carte call` answering an upstream's form elicitation (MCP `elicitation/create`, form mode;
// SEP-1034 defaults): `--yes` accepts the form's defaults; on a terminal each field is asked on
// stderr, its default shown, and read from the terminal; with neither, the form is declined.
// The form's text is the upstream's (untrusted): control characters are dropped before it is shown.
import type { ElicitationAnswer, Elicitor, FormElicitation, FormValue } from '../../gateway/index.js';
import { clip, note } from './output.js';

type Field = Record<string, unknown>;

/** How `carte call` answers: `--yes` (defaults), else a prompt where a terminal is attached, else decline. */
export function cliElicitor(yes: boolean): Elicitor {
  return async (form, signal) => {
    note(`server "${form.serverId}" asks: ${shown(form.message, 500)}`);
    if (yes) return withDefaults(form);
    if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) {
      note('declined: no terminal to ask on (`--yes` accepts the form with its defaults)');
      return { action: 'decline' };
    }
    return askOnTerminal(form, signal);
  };
}

/** Accepts with each field's default; declines when a required field has none. */
export function withDefaults(form: FormElicitation): ElicitationAnswer {
  const content: Record<string, FormValue> = {};
  const missing: string[] = [];
  for (const [name, field] of fields(form)) {
    const value = defaultOf(field);
    if (value !== undefined) content[name] = value;
    else if (required(form, name)) missing.push(shown(name, 60));
  }
  if (missing.length > 0) {
    note(`declined: --yes has no default for the required ${missing.join(', ')}`);
    return { action: 'decline' };
  }
  note(`accepted with its defaults: ${shown(JSON.stringify(content), 300)}`);
  return { action: 'accept', content };
}

/** Reads a field's answer typed as `text`: its value, undefined for "none", or why it does not fit. */
export function parseField(field: Field, text: string): { value?: FormValue } | { error: string } {
  const t = text.trim();
  if (t === '') return {};
  const options = choices(field);
  if (field.type === 'array') {
    const picked = t
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const bad = picked.find((p) => options && !options.includes(p));
    if (bad !== undefined) return { error: `"${shown(bad, 40)}" is not one of ${list(options!)}` };
    const [min, max] = [field.minItems, field.maxItems];
    if (typeof min === 'number' && picked.length < min) return { error: `pick at least ${min}` };
    if (typeof max === 'number' && picked.length > max) return { error: `pick at most ${max}` };
    return { value: picked };
  }
  if (options) return options.includes(t) ? { value: t } : { error: `answer one of ${list(options)}` };
  if (field.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(t)) return { value: true };
    if (/^(n|no|false)$/i.test(t)) return { value: false };
    return { error: 'answer yes or no' };
  }
  if (field.type === 'number' || field.type === 'integer') {
    const n = Number(t);
    if (!Number.isFinite(n)) return { error: 'answer a number' };
    if (field.type === 'integer' && !Number.isInteger(n)) return { error: 'answer a whole number' };
    if (typeof field.minimum === 'number' && n < field.minimum) return { error: `at least ${field.minimum}` };
    if (typeof field.maximum === 'number' && n > field.maximum) return { error: `at most ${field.maximum}` };
    return { value: n };
  }
  if (typeof field.minLength === 'number' && t.length < field.minLength)
    return { error: `at least ${field.minLength} characters` };
  if (typeof field.maxLength === 'number' && t.length > field.maxLength)
    return { error: `at most ${field.maxLength} characters` };
  return { value: t };
}

/** Asks whether to answer, then each field; end of input or Ctrl-C cancels. */
async function askOnTerminal(form: FormElicitation, signal?: AbortSignal): Promise<ElicitationAnswer> {
  // Loaded here: every other command's start skips it (test/e2e/cli/cli-start-modules.test.ts).
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const stop = new AbortController();
  const cancel = () => stop.abort();
  rl.on('SIGINT', cancel);
  rl.on('close', cancel);
  signal?.addEventListener('abort', cancel, { once: true });
  const ask = (q: string) => rl.question(q, { signal: stop.signal });
  try {
    const go = await ask('answer it? (y: fill in the form, n: decline) [y] ');
    if (/^\s*(n|no)\s*$/i.test(go)) return { action: 'decline' };
    const content: Record<string, FormValue> = {};
    for (const [name, field] of fields(form)) {
      const value = await askField(ask, name, field, required(form, name));
      if (value !== undefined) content[name] = value;
    }
    return { action: 'accept', content };
  } catch (err) {
    if (stop.signal.aborted) {
      note('cancelled');
      return { action: 'cancel' };
    }
    throw err;
  } finally {
    signal?.removeEventListener('abort', cancel);
    rl.off('close', cancel);
    rl.close();
  }
}

/** One field, asked until the answer fits; an empty answer takes the default (none: omitted if optional). */
async function askField(
  ask: (q: string) => Promise<string>,
  name: string,
  field: Field,
  isRequired: boolean,
): Promise<FormValue | undefined> {
  for (;;) {
    const parsed = parseField(field, await ask(promptOf(name, field, isRequired)));
    if ('error' in parsed) {
      note(`  ${parsed.error}`);
      continue;
    }
    const value = parsed.value ?? defaultOf(field);
    if (value !== undefined || !isRequired) return value;
    note('  this field is required');
  }
}

/** `  name (title: description; one of a, b) [default]: ` */
function promptOf(name: string, field: Field, isRequired: boolean): string {
  const about = [field.title, field.description]
    .filter((x): x is string => typeof x === 'string' && x !== '')
    .map((x) => shown(x, 120))
    .join(': ');
  const options = choices(field);
  const kind = options
    ? `${field.type === 'array' ? 'any of' : 'one of'} ${list(options)}`
    : field.type === 'boolean'
      ? 'yes or no'
      : field.type === 'integer'
        ? 'a whole number'
        : field.type === 'number'
          ? 'a number'
          : '';
  const hint = [about, kind].filter((x) => x !== '').join('; ');
  const d = defaultOf(field);
  const shownDefault =
    d === undefined ? '' : ` [${typeof d === 'boolean' ? (d ? 'yes' : 'no') : shown(String(d), 80)}]`;
  return `  ${shown(name, 60)}${isRequired ? '*' : ''}${hint ? ` (${hint})` : ''}${shownDefault}: `;
}

function fields(form: FormElicitation): [string, Field][] {
  const props = form.requestedSchema?.properties;
  return props && typeof props === 'object' ? Object.entries(props) : [];
}

function required(form: FormElicitation, name: string): boolean {
  const r = form.requestedSchema?.required;
  return Array.isArray(r) && r.includes(name);
}

/** The field's default when it fits the field (a default of another type is not sent). */
function defaultOf(field: Field): FormValue | undefined {
  const d = field.default;
  if (field.type === 'array')
    return Array.isArray(d) && d.every((x) => typeof x === 'string') ? d : undefined;
  if (field.type === 'boolean') return typeof d === 'boolean' ? d : undefined;
  if (field.type === 'number') return typeof d === 'number' ? d : undefined;
  if (field.type === 'integer') return Number.isInteger(d) ? (d as number) : undefined;
  return typeof d === 'string' ? d : undefined;
}

/** The allowed values of an enum field (`enum`, titled `oneOf`/`anyOf` consts, or an array's items). */
function choices(field: Field): string[] | undefined {
  const source = field.type === 'array' ? (field.items as Field | undefined) : field;
  if (!source || typeof source !== 'object') return undefined;
  if (Array.isArray(source.enum)) return source.enum.map(String);
  const titled: unknown = source.oneOf ?? source.anyOf;
  if (Array.isArray(titled))
    return (titled as unknown[]).flatMap((o) =>
      o && typeof o === 'object' && 'const' in o ? [String(o.const)] : [],
    );
  return undefined;
}

function list(options: string[]): string {
  return options.map((o) => shown(o, 40)).join(', ');
}

/** Upstream text fit for a terminal: no control characters (escape sequences), cut to `max`. */
function shown(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return clip(text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' '), max);
}
