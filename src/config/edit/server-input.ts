import { z } from 'zod';
import { CarteError } from '../../errors.js';
import type { ConfigFormat } from '../formats/detect-format.js';
import { reportIssues } from '../problems/issues.js';
import { Problems } from '../problems/problems.js';
import { RemoteServerObject, StdioServerObject } from '../schema/schema.js';

const StdioInput = StdioServerObject.pick({
  command: true,
  cwd: true,
  description: true,
  sandbox: true,
}).extend({
  args: z.array(z.string()).optional().describe('Arguments passed to the program.'),
  env: z.record(z.string(), z.string()).optional().describe('Extra environment variables.'),
});
const RemoteInput = RemoteServerObject.pick({ url: true, transport: true, description: true }).extend({
  headers: z.record(z.string(), z.string()).optional().describe('HTTP headers sent with every request.'),
});

/** A server to add to a config file (`carte add`): stdio or remote, values as they should be written. */
export type ServerInput = z.output<typeof StdioInput> | z.output<typeof RemoteInput>;

/** Checks input from a caller; a CarteError 'bad_input' names the first problem. */
export function checkServerInput(input: unknown): ServerInput {
  const isObject = typeof input === 'object' && input !== null;
  const hasCommand = isObject && Object.hasOwn(input, 'command');
  const hasUrl = isObject && Object.hasOwn(input, 'url');
  if (hasCommand === hasUrl) {
    throw new CarteError('bad_input', 'a server needs exactly one of "command" (stdio) or "url" (remote)');
  }
  const schema = hasCommand ? StdioInput : RemoteInput;
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const out = new Problems();
  reportIssues(result.error.issues, { prefix: [], knownKeys: Object.keys(schema.shape) }, out);
  const first = out.errors[0];
  throw new CarteError('bad_input', `bad server: ${first?.path ? `${first.path}: ` : ''}${first?.message}`);
}

/** The entry as the file's format writes it; empty optional fields are left out. */
export function entryFor(input: ServerInput, format: ConfigFormat): Record<string, unknown> {
  if ('command' in input) {
    return {
      ...(format === 'vscode' ? { type: 'stdio' } : {}),
      command: input.command,
      ...(input.args?.length ? { args: input.args } : {}),
      ...(input.env && Object.keys(input.env).length > 0 ? { env: input.env } : {}),
      ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      // Registered servers carry their sandbox and its grant (issue 42); every format reads the key.
      ...(input.sandbox !== undefined ? { sandbox: writtenSandbox(input.sandbox) } : {}),
    };
  }
  const type = input.transport === 'sse' ? 'sse' : 'http';
  const typed = format === 'vscode' || (format === 'claude' && input.transport !== undefined);
  return {
    ...(typed ? { type } : {}),
    url: input.url,
    ...(input.headers && Object.keys(input.headers).length > 0 ? { headers: input.headers } : {}),
    ...(format === 'carte' && input.transport !== undefined ? { transport: input.transport } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
  };
}

/** A sandbox as written: empty lists other than `network` (which says "none" outright) left out. */
function writtenSandbox(sandbox: NonNullable<z.output<typeof StdioInput>['sandbox']>): unknown {
  if (typeof sandbox !== 'object') return sandbox;
  return Object.fromEntries(
    Object.entries(sandbox).filter(([k, v]) => k === 'network' || !(Array.isArray(v) && v.length === 0)),
  );
}
