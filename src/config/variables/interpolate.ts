import { quote } from '../../errors.js';

/** What `${...}` variables expand to. */
export interface TemplateContext {
  env: Record<string, string | undefined>;
  /** The data dir, for `${dataDir}`; absent means using it is an error. */
  dataDir?: string;
  /** The server's id as the file spells it, for messages. */
  server: string;
  /** Who uses the variables, for messages; `server "<id>"` when absent. */
  owner?: string;
}

export type Expanded = { ok: true; value: string } | { ok: false; message: string };

/** `$${` is a literal `${`; otherwise `${body}`, or `${body` to the end when unclosed. */
const TOKEN = /\$\$\{|\$\{([^}]*)(\}?)/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands `${env:NAME}` and `${dataDir}` in one string. Messages name the variable and never its
 * value, so a secret read from the environment cannot leak into an error.
 */
export function expandTemplate(raw: string, ctx: TemplateContext): Expanded {
  let failure: string | undefined;
  const value = raw.replace(TOKEN, (match: string, body: string | undefined, close: string | undefined) => {
    if (match === '$${') return '${';
    if (failure !== undefined) return '';
    const r = resolveVariable(body ?? '', close === '}', ctx);
    if (r.ok) return r.value;
    failure = r.message;
    return '';
  });
  return failure === undefined ? { ok: true, value } : { ok: false, message: failure };
}

function resolveVariable(body: string, closed: boolean, ctx: TemplateContext): Expanded {
  const token = `\${${body}}`;
  if (!closed) return fail(`unterminated variable ${quote(`\${${body}`)}; close it with "}"`);
  if (body.startsWith('env:')) {
    const name = body.slice(4);
    if (!ENV_NAME.test(name))
      return fail(`invalid environment variable name ${quote(name)} in ${quote(token)}`);
    const value = Object.hasOwn(ctx.env, name) ? ctx.env[name] : undefined;
    return typeof value === 'string'
      ? ok(value)
      : fail(`environment variable ${JSON.stringify(name)} is not set`);
  }
  if (body === 'dataDir') {
    return ctx.dataDir === undefined
      ? fail('"${dataDir}" is used but no data directory was given')
      : ok(ctx.dataDir);
  }
  if (body.startsWith('input:')) {
    const input = JSON.stringify(body.slice('input:'.length));
    return fail(
      `${ctx.owner ?? `server ${JSON.stringify(ctx.server)}`} uses input ${input} (${token}), which is not supported; use \${env:NAME} instead`,
    );
  }
  return fail(`unknown variable ${quote(token)}; use \${env:NAME}, \${dataDir}, or $\${ for a literal "\${"`);
}

function ok(value: string): Expanded {
  return { ok: true, value };
}

function fail(message: string): Expanded {
  return { ok: false, message };
}
