import type { z } from 'zod';
import { rememberAsWritten } from '../secrets/describe-target.js';
import { rememberDataDir } from '../schema/hash.js';
import { didYouMean } from '../problems/did-you-mean.js';
import { reportIssues } from '../problems/issues.js';
import { describeValue, isRecord, type Problems, type Segment } from '../problems/problems.js';
import { validateSearch } from './resolve-search.js';
import { resolveServer } from './resolve-server.js';
import { resolveSandbox } from './resolve-sandbox.js';
import { resolveStore } from './resolve-store.js';
import {
  ConfigSchema,
  ExposureSchema,
  MenuSchema,
  AuditSchema,
  RegistrationSchema,
  StoreSchema,
  LimitsSchema,
  SandboxObject,
  SandboxSectionSchema,
  type CarteConfig,
  type ServerConfig,
} from '../schema/schema.js';
import { AuthSchema, OidcSchema } from '../schema/schema-auth.js';
import { badIdMessage, isServerId } from '../schema/server-ids.js';
import { validateHttp } from './validate-http.js';
import { validateProjects } from './validate-projects.js';
import { validateRules } from './validate-rules.js';
import { checkIdentities, validateServer } from './validate-server.js';

export interface ValidateOptions {
  env: Record<string, string | undefined>;
  dataDir?: string;
  /** Absolute folder of the config file, for relative `cwd`. */
  configDir?: string;
  /** The config file itself, absolute: hidden from sandboxed servers. */
  configPath?: string | undefined;
  /** Set for foreign formats: ids are already normalised; maps each id to the id as written. */
  writtenIds?: ReadonlyMap<string, string>;
}

const TOP_KEYS = Object.keys(ConfigSchema.shape);

/**
 * Checks a document in Carte's format and expands its variables. Every problem is reported in
 * one pass (structure first, then variables of the servers that are well formed).
 */
export function validateConfig(
  value: unknown,
  opts: ValidateOptions,
  out: Problems,
): CarteConfig | undefined {
  const start = out.errors.length;
  // An empty YAML file (or `servers:` with nothing under it) reads as null: nothing configured.
  const doc = value ?? {};
  if (!isRecord(doc)) {
    out.error([], `expected an object with "servers", got ${describeValue(doc)}`);
    return undefined;
  }
  for (const key of Object.keys(doc).filter((k) => !TOP_KEYS.includes(k))) {
    out.error([key], `unknown key ${JSON.stringify(key)}${didYouMean(key, TOP_KEYS)}`);
  }
  if (doc.$schema !== undefined && typeof doc.$schema !== 'string') {
    out.error(['$schema'], `expected a string, got ${describeValue(doc.$schema)}`);
  }
  const written = checkServers(doc.servers, opts.writtenIds === undefined, out);
  const search = validateSearch(doc.search, ['search'], opts, out);
  const limits = checkSection(LimitsSchema, 'limits', doc.limits, out);
  const exposure = checkSection(ExposureSchema, 'exposure', doc.exposure, out);
  const menu = checkSection(MenuSchema, 'menu', doc.menu, out);
  const audit = checkSection(AuditSchema, 'audit', doc.audit, out);
  const storeAsWritten = checkSection(StoreSchema, 'store', doc.store, out);
  const store = storeAsWritten && resolveStore(storeAsWritten, opts, out);
  const registration = checkSection(RegistrationSchema, 'registration', doc.registration, out);
  const serverIds = isRecord(doc.servers) ? Object.keys(doc.servers) : [];
  const projects = validateProjects(doc.projects, { serverIds, ctx: opts }, out);
  const http = validateHttp(doc.http, doc.projects, out);
  const auth = checkSection(AuthSchema, 'auth', doc.auth, out);
  const sandbox = checkSection(SandboxSectionSchema, 'sandbox', doc.sandbox, out);
  const rules = validateRules(doc.rules, isRecord(doc.servers) ? Object.keys(doc.servers) : [], out);
  const servers: Record<string, ServerConfig> = {};
  for (const [id, server] of written) {
    const ctx = { ...opts, server: opts.writtenIds?.get(id) ?? id };
    const expanded = resolveServer(server, ['servers', id], ctx, out);
    const resolved =
      expanded && sandbox && withSandbox(expanded, id, { ...ctx, server: id }, sandbox.default, out);
    if (!resolved) continue;
    rememberAsWritten(resolved, server, opts.dataDir);
    if (opts.dataDir) rememberDataDir(resolved, opts.dataDir);
    servers[id] = resolved;
  }
  if (auth) checkIdentities(servers, auth.oidc !== undefined, out);
  if (out.errors.length > start || !search || !limits || !exposure || !menu || !rules) return undefined;
  if (!audit || !store || !registration || !projects.ok || !http || !auth || !sandbox) return undefined;
  const $schema = typeof doc.$schema === 'string' ? { $schema: doc.$schema } : {};
  return {
    ...$schema,
    servers,
    search,
    limits,
    rules,
    exposure,
    menu,
    audit,
    store,
    registration,
    http,
    auth,
    sandbox,
    ...(projects.projects ? { projects: projects.projects } : {}),
  };
}

/** A stdio server with its effective sandbox resolved (false when none); undefined on a bad path. */
function withSandbox(
  server: ServerConfig,
  id: string,
  ctx: ValidateOptions & { server: string },
  fallback: CarteConfig['sandbox']['default'],
  out: Problems,
): ServerConfig | undefined {
  if (server.kind !== 'stdio') return server;
  const sandbox = resolveSandbox(server.sandbox, fallback, ['servers', id], ctx, out);
  return sandbox === undefined ? undefined : { ...server, sandbox };
}

function checkServers(value: unknown, checkIds: boolean, out: Problems): [string, ServerConfig][] {
  if (value === undefined || value === null) return [];
  if (!isRecord(value)) {
    out.error(['servers'], `expected an object of servers by id, got ${describeValue(value)}`);
    return [];
  }
  const servers: [string, ServerConfig][] = [];
  for (const [id, raw] of Object.entries(value)) {
    const idOk = !checkIds || isServerId(id);
    if (!idOk) out.error(['servers', id], badIdMessage(id));
    const server = validateServer(raw, ['servers', id], out);
    if (idOk && server !== undefined) servers.push([id, server]);
  }
  return servers;
}

type Section =
  | typeof LimitsSchema
  | typeof ExposureSchema
  | typeof MenuSchema
  | typeof AuditSchema
  | typeof StoreSchema
  | typeof RegistrationSchema
  | typeof AuthSchema
  | typeof SandboxSectionSchema;

/** Keys of the objects nested in a section, by their dotted path, for "did you mean". */
const NESTED_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ['allow', Object.keys(RegistrationSchema.shape.allow.unwrap().shape)],
  ['oidc', Object.keys(OidcSchema.shape)],
  ['default', Object.keys(SandboxObject.shape)],
]);

function checkSection<S extends Section>(schema: S, key: string, value: unknown, out: Problems) {
  const result = schema.safeParse(value ?? {}, { reportInput: true });
  if (result.success) return result.data as z.output<S>;
  const keysAt = (path: readonly Segment[]) => NESTED_KEYS.get(path.join('.'));
  reportIssues(result.error.issues, { prefix: [key], knownKeys: Object.keys(schema.shape), keysAt }, out);
  return undefined;
}
