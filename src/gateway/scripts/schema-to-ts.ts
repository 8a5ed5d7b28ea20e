// A JSON Schema (draft-07 or 2020-12) as a TypeScript type, for the signatures run_code's authors
// read (issue 43 §4). Pure. The schema is an upstream's, so untrusted: every name written as code
// is made a valid identifier or quoted, and descriptions go in comments with `*/` broken.
// What TypeScript cannot say (patterns, ranges, `not`, conditionals) is left out; what this does
// not understand becomes `unknown`, never a wrong narrower type.

/** How a schema is rendered. */
export interface SchemaRendering {
  /** Property descriptions as `/** *\/` comments (default true). */
  comments?: boolean;
  /** The prefix of the names given to `$defs` (and to the root, when it refers to itself). */
  name: string;
}

/** A schema as one type expression plus the `type X = ...;` declarations its `$ref`s need. */
export interface RenderedType {
  type: string;
  declarations: string[];
}

/** Nesting past this depth is `unknown` (schemas are untrusted and may be deep). */
const MAX_DEPTH = 16;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `type <name> = ...;` with the declarations it refers to: the schema as TypeScript source. */
export function schemaToTypeScript(schema: unknown, name: string, comments = true): string {
  const typeName = toTypeName(name);
  const rendered = renderSchema(schema, { name: typeName, comments });
  const root = rendered.declarations.some((d) => d.startsWith(`type ${typeName} =`));
  const head = root ? [] : [`type ${typeName} = ${rendered.type};`];
  return [...head, ...rendered.declarations].join('\n');
}

/** The schema as a type expression, with declarations for its `$defs` and a self-referring root. */
export function renderSchema(schema: unknown, options: SchemaRendering): RenderedType {
  const r = new Renderer(schema, options);
  const type = r.type(schema, 0);
  return { type: r.selfReferred ? r.rootName : type, declarations: r.declarations(type) };
}

/** A valid PascalCase identifier from any text: `filesystem/read_text_file` gives `FilesystemReadTextFile`. */
export function toTypeName(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (name === '') return 'Unnamed';
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/** A comment block from untrusted text: `*\/` cannot end it early, each line starts with ` * `. */
export function docComment(text: string, indent = ''): string {
  const lines = text
    .replace(/\*\//g, '*\\/')
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === '' ? '' : ` ${l}`}`).join('\n')}\n${indent} */\n`;
}

/** A literal type for a JSON value, or undefined when TypeScript has none (objects, arrays). */
function literal(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string') return quote(value);
  return undefined;
}

/** A TypeScript string literal: JSON's, with the line and paragraph separators escaped too. */
export function quote(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : quote(name);
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  const rest = unique.filter((t) => t !== 'never');
  if (rest.length === 0) return 'never';
  return rest.map((t) => (rest.length > 1 && isCompound(t) ? `(${t})` : t)).join(' | ');
}

function intersection(types: string[]): string {
  const rest = [...new Set(types)].filter((t) => t !== 'unknown');
  if (rest.length === 0) return 'unknown';
  return rest.map((t) => (rest.length > 1 && isCompound(t) ? `(${t})` : t)).join(' & ');
}

/** A type that needs parentheses inside a union, intersection or array: `A | B`, `A & B`. */
function isCompound(type: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[' || c === '(' || c === '<') depth++;
    else if (c === '}' || c === ']' || c === ')' || c === '>') depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return true;
  }
  return false;
}

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Renderer {
  readonly rootName: string;
  selfReferred = false;
  /** How many objects deep the member being written is: its indentation. */
  private level = 0;
  /** `$defs`/`definitions` entries referred to, by pointer: their type name, rendered once. */
  private readonly defs = new Map<string, { name: string; type?: string }>();
  private readonly names = new Set<string>();

  constructor(
    private readonly root: unknown,
    private readonly options: SchemaRendering,
  ) {
    this.rootName = toTypeName(options.name);
    this.names.add(this.rootName);
  }

  declarations(rootType: string): string[] {
    const out = [...this.defs.values()].map((d) => `type ${d.name} = ${d.type ?? 'unknown'};`);
    return this.selfReferred ? [`type ${this.rootName} = ${rootType};`, ...out] : out;
  }

  type(schema: unknown, depth: number): string {
    if (schema === true || schema === undefined) return 'unknown';
    if (schema === false) return 'never';
    if (!isSchema(schema) || depth > MAX_DEPTH) return 'unknown';
    const parts: string[] = [];
    if (typeof schema.$ref === 'string') parts.push(this.ref(schema.$ref));
    if (Array.isArray(schema.allOf))
      parts.push(intersection(schema.allOf.map((s) => this.type(s, depth + 1))));
    for (const key of ['anyOf', 'oneOf'] as const) {
      const list = schema[key];
      if (Array.isArray(list)) parts.push(union(list.map((s) => this.type(s, depth + 1))));
    }
    const own = this.ownType(schema, depth);
    if (own !== undefined) parts.push(own);
    return parts.length === 0 ? 'unknown' : intersection(parts);
  }

  /** The type the schema's own keywords say (const, enum, type), or undefined when they say nothing. */
  private ownType(schema: Schema, depth: number): string | undefined {
    if ('const' in schema) return literal(schema.const) ?? 'unknown';
    if (Array.isArray(schema.enum)) {
      const literals = schema.enum.map(literal);
      return literals.every((l) => l !== undefined) ? union(literals) : 'unknown';
    }
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    if (types.length === 0) {
      if (isSchema(schema.properties) || schema.additionalProperties !== undefined)
        return this.objectType(schema, depth);
      if (schema.items !== undefined || Array.isArray(schema.prefixItems))
        return this.arrayType(schema, depth);
      return undefined;
    }
    const each = types.map((t) => this.typeOf(t, schema, depth));
    if (schema.nullable === true) each.push('null'); // OpenAPI 3.0's spelling
    return union(each);
  }

  private typeOf(type: unknown, schema: Schema, depth: number): string {
    switch (type) {
      case 'string':
      case 'boolean':
      case 'null':
        return type;
      case 'number':
      case 'integer':
        return 'number';
      case 'array':
        return this.arrayType(schema, depth);
      case 'object':
        return this.objectType(schema, depth);
      default:
        return 'unknown';
    }
  }

  private arrayType(schema: Schema, depth: number): string {
    // 2020-12 tuples are prefixItems (+ items for the rest); draft-07's are an items array.
    const tuple = Array.isArray(schema.prefixItems)
      ? schema.prefixItems
      : Array.isArray(schema.items)
        ? schema.items
        : undefined;
    const rest = tuple === schema.items ? schema.additionalItems : schema.items;
    if (tuple) {
      const fixed = tuple.map((s) => this.type(s, depth + 1));
      const more = rest === false ? [] : [`...${this.element(rest, depth)}[]`];
      return `[${[...fixed, ...more].join(', ')}]`;
    }
    return `${this.element(rest, depth)}[]`;
  }

  private element(schema: unknown, depth: number): string {
    const t = this.type(schema, depth + 1);
    return isCompound(t) ? `(${t})` : t;
  }

  private objectType(schema: Schema, depth: number): string {
    const props = isSchema(schema.properties) ? Object.entries(schema.properties) : [];
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const outer = '  '.repeat(this.level);
    const indent = `${outer}  `;
    this.level++;
    const members = props.map(([name, s]) => {
      const doc =
        this.options.comments !== false && isSchema(s) && typeof s.description === 'string'
          ? docComment(s.description, indent)
          : '';
      const optional = required.has(name) ? '' : '?';
      return `${doc}${indent}${propertyName(name)}${optional}: ${this.type(s, depth + 1)};`;
    });
    const extra = schema.additionalProperties;
    if (extra !== undefined && extra !== false) {
      const t = props.length > 0 || extra === true ? 'unknown' : this.type(extra, depth + 1);
      members.push(`${indent}[key: string]: ${t};`);
    }
    this.level--;
    if (members.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
    const flat = members.map((m) => m.trim().slice(0, -1));
    const oneLine = `{ ${flat.join('; ')} }`;
    if (
      !oneLine.includes('\n') &&
      !flat.some((m) => m.startsWith('/*')) &&
      oneLine.length + indent.length <= 100
    )
      return oneLine;
    return `{\n${members.join('\n')}\n${outer}}`;
  }

  /** `#` is the root; `#/$defs/X` and `#/definitions/X` are named types; any other reference is unknown. */
  private ref(pointer: string): string {
    if (pointer === '#') {
      this.selfReferred = true;
      return this.rootName;
    }
    const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(pointer);
    const defs = m && isSchema(this.root) ? this.root[m[1]!] : undefined;
    const name = m?.[2]?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(defs) || name === undefined || !Object.hasOwn(defs, name)) return 'unknown';
    const known = this.defs.get(pointer);
    if (known) return known.name;
    const entry: { name: string; type?: string } = { name: this.uniqueName(name) };
    this.defs.set(pointer, entry); // before rendering, so a recursive definition refers to its name
    const level = this.level;
    this.level = 0; // a declaration of its own, at the top level
    entry.type = this.type(defs[name], 0);
    this.level = level;
    return entry.name;
  }

  private uniqueName(defName: string): string {
    const base = `${this.rootName}${toTypeName(defName)}`;
    let name = base;
    for (let i = 2; this.names.has(name); i++) name = `${base}${i}`;
    this.names.add(name);
    return name;
  }
}
