import { z } from 'zod';

import { SERVER_ID_PATTERN } from './server-id-pattern.js';
import { CALL_CLASSES, CATEGORY_IDS, ExposureSchema, MenuSchema, ToolRuleSchema } from './schema-menu.js';
import { AuditSchema, ProjectSchema, RegistrationSchema, StoreSchema } from './schema-trust.js';
import { HttpSchema } from './schema-http.js';
import { AuthSchema } from './schema-auth.js';
import { RemoteEmbeddingsSchema, RemoteRerankSchema, RemoteSearchSchema, SearchSchema } from './schema-search.js';
import { SandboxObject, SandboxSchema, SandboxSectionSchema } from './schema-sandbox.js';

export { SERVER_ID_PATTERN, CALL_CLASSES, CATEGORY_IDS, ExposureSchema, MenuSchema, ToolRuleSchema };
export { AuditSchema, ProjectSchema, RegistrationSchema, StoreSchema };
export { HttpSchema, AuthSchema };
export { RemoteEmbeddingsSchema, RemoteRerankSchema, RemoteSearchSchema, SearchSchema };
export { SandboxObject, SandboxSchema, SandboxSectionSchema };
export type { CallClass, CategoryId } from './schema-menu.js';

/** Longest timer Node honours: setTimeout fires at once past 2^31-1 ms, so cap at one day. */
const MAX_TIMEOUT_MS = 86_400_000;

const TEMPLATES = 'May use ${env:NAME} and ${dataDir}.';

const commonServerShape = {
  enabled: z
    .boolean()
    .default(true)
    .describe('Whether Carte connects to this server; false keeps it listed but off.'),
  timeoutMs: z
    .int()
    .positive()
    .max(MAX_TIMEOUT_MS)
    .default(60_000)
    .describe('How long one tool call may run, in milliseconds, before it fails with a timeout.'),
  discoveryTimeoutMs: z
    .int()
    .positive()
    .max(MAX_TIMEOUT_MS)
    .default(30_000)
    .describe('How long connecting and listing tools may take, in milliseconds.'),
  idleTimeoutMs: z
    .int()
    .min(0)
    .max(MAX_TIMEOUT_MS)
    .default(300_000)
    .describe(
      'Close the connection (and stop a stdio process) after this long without calls, in milliseconds; 0 keeps it open.',
    ),
  maxConcurrency: z
    .int()
    .min(1)
    .max(1024)
    .default(16)
    .describe('Calls to this server that may run at once; more wait in a queue.'),
  maxQueue: z
    .int()
    .min(0)
    .max(100_000)
    .default(64)
    .describe('Calls that may wait for a free slot; beyond this a call fails at once with a "busy" error.'),
  description: z
    .string()
    .optional()
    .describe(
      'What this server is for, in a few words; shown in listings. No default: listings use the target.',
    ),
  trusted: z
    .boolean()
    .optional()
    .describe(
      "How far its tools' annotations are believed for call classes: false treats every tool as destructive; true believes them and reads a tool without a destructive hint as write. No default: believed, and a missing hint means destructive.",
    ),
  trust: z
    .strictObject({
      pin: z
        .boolean()
        .default(true)
        .describe(
          "Pin each tool's name, description, schema and annotations after the first discovery and quarantine a tool that changes. Default true.",
        ),
    })
    .prefault({})
    .describe('Defences against poisoned and silently changed tools (docs/security.md).'),
};

/** The keys of a stdio server as written, before Carte adds `kind`. */
export const StdioServerObject = z
  .strictObject({
    command: z.string().min(1).describe(`Program to start, found on PATH or given as a path. ${TEMPLATES}`),
    args: z.array(z.string()).default([]).describe(`Arguments passed to the program. ${TEMPLATES}`),
    env: z
      .record(z.string(), z.string())
      .default({})
      .describe(`Extra environment variables for the program; keep secrets out of the file. ${TEMPLATES}`),
    cwd: z
      .string()
      .min(1)
      .optional()
      .describe(`Working directory; relative paths are taken from the config file's folder. ${TEMPLATES}`),
    sandbox: SandboxSchema.optional(),
    ...commonServerShape,
  })
  .describe('A server Carte starts as a child process and talks to over stdin/stdout.');

/** The keys of a remote server as written, before Carte adds `kind`. */
export const RemoteServerObject = z
  .strictObject({
    url: z.string().min(1).describe('The MCP endpoint, http:// or https://. May use ${env:NAME}.'),
    headers: z
      .record(z.string(), z.string())
      .default({})
      .describe('HTTP headers sent with every request; keep secrets out of the file with ${env:NAME}.'),
    transport: z
      .enum(['streamable-http', 'sse'])
      .optional()
      .describe('Which HTTP transport to use; omit it to try Streamable HTTP and fall back to SSE.'),
    oauth: z
      .strictObject({
        grant: z
          .enum(['authorization_code', 'client_credentials'])
          .default('authorization_code')
          .describe(
            'authorization_code: a person signs in with `carte auth login <id>` (the default); client_credentials: machine to machine with clientId and clientSecret (or privateKeyFile).',
          ),
        clientId: z
          .string()
          .min(1)
          .optional()
          .describe(
            'A client registered beforehand with the authorization server. No default: Carte registers itself (RFC 7591).',
          ),
        clientSecret: z
          .string()
          .min(1)
          .optional()
          .describe('The pre-registered client\'s secret; keep it out of the file with ${env:NAME}. No default.'),
        scope: z
          .string()
          .min(1)
          .optional()
          .describe(
            "Scopes to ask for, space-separated. No default: the server's challenge, then its scopes_supported.",
          ),
        clientMetadataUrl: z
          .url({ protocol: /^https$/ })
          .optional()
          .describe(
            'An https URL where Carte\'s client metadata document is published (Client ID Metadata Documents): used as the client_id when the authorization server advertises client_id_metadata_document_supported. No default: Dynamic Client Registration.',
          ),
        privateKeyFile: z
          .string()
          .min(1)
          .optional()
          .describe(
            'client_credentials with private_key_jwt: a PKCS#8 PEM private key file that signs the client assertion (RFC 7523), instead of clientSecret; relative paths are taken from the config file\'s folder. No default.',
          ),
        signingAlgorithm: z
          .enum(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'])
          .default('RS256')
          .describe('The JWS algorithm of the private_key_jwt assertion, matching the key in privateKeyFile. Default RS256.'),
        identity: z
          .enum(['shared', 'per-user'])
          .default('shared')
          .describe(
            "shared: one sign-in for the whole deployment, made by an admin (the default); per-user: each OIDC subject links their own account and calls use the caller's own token (needs auth.oidc).",
          ),
      })
      .optional()
      .describe(
        'How Carte signs in to this server when it answers HTTP 401 (docs/upstream-auth.md). No default: authorization code with Dynamic Client Registration.',
      ),
    ...commonServerShape,
  })
  .describe('A server Carte reaches over HTTP (Streamable HTTP or the older SSE transport).');

/** A stdio server, tagged `kind: 'stdio'` so code can switch on it. */
export const StdioServerSchema = StdioServerObject.transform((s) => ({ kind: 'stdio' as const, ...s }));

/** A remote server, tagged `kind: 'remote'` so code can switch on it. */
export const RemoteServerSchema = RemoteServerObject.transform((s) => ({ kind: 'remote' as const, ...s }));

/** One upstream server: exactly one of `command` (stdio) or `url` (remote). */
export const ServerSchema = z
  .union([StdioServerSchema, RemoteServerSchema])
  .describe('One upstream MCP server: give either "command" (stdio) or "url" (remote).');

export const LimitsSchema = z
  .strictObject({
    maxSchemaBytes: z
      .int()
      .min(1024)
      .max(16 * 1024 * 1024)
      .default(65_536)
      .describe(
        'Largest tool input or output schema, in bytes of JSON, stored whole; bigger ones are stored reduced.',
      ),
    maxResultBytes: z
      .int()
      .min(1024)
      .max(512 * 1024 * 1024)
      .default(8 * 1024 * 1024)
      .describe(
        'Largest message an upstream may send (a tool result, a listing), in bytes; a bigger one fails that call.',
      ),
  })
  .describe('Bounds that protect the gateway and its callers from oversized upstream data.');

/** The whole config file in Carte's own format: the source of the config types. */
export const ConfigSchema = z
  .strictObject({
    $schema: z
      .string()
      .optional()
      .describe('Path or URL of this JSON Schema, for editor completion; Carte ignores it.'),
    servers: z
      .record(z.string().regex(SERVER_ID_PATTERN), ServerSchema)
      .default({})
      .describe('The upstream MCP servers, by id. Ids use a-z, 0-9, "-" and "_" and prefix tool names.'),
    search: SearchSchema.prefault({}),
    limits: LimitsSchema.prefault({}),
    rules: z
      .array(ToolRuleSchema)
      .default([])
      .describe(
        'Tool rules, in order: hide or show tools, tag them, set their category or pin them (docs/menu.md, "Rules").',
      ),
    exposure: ExposureSchema.prefault({}),
    menu: MenuSchema.prefault({}),
    projects: z
      .record(z.string().regex(SERVER_ID_PATTERN), ProjectSchema)
      .optional()
      .describe(
        'Projects by id. No default: one implicit project "default" that sees every server (docs/security.md).',
      ),
    audit: AuditSchema.prefault({}),
    store: StoreSchema.prefault({}),
    registration: RegistrationSchema.prefault({}),
    http: HttpSchema.prefault({}),
    auth: AuthSchema.prefault({}),
    sandbox: SandboxSectionSchema.prefault({}),
  })
  .describe('Carte configuration: the upstream MCP servers to gather, and how to search them.');

export type CarteConfig = z.output<typeof ConfigSchema>;
export type ServerConfig = CarteConfig['servers'][string];
export type StdioServerConfig = Extract<ServerConfig, { kind: 'stdio' }>;
export type RemoteServerConfig = Extract<ServerConfig, { kind: 'remote' }>;
export type SearchConfig = CarteConfig['search'];
export type RemoteSearchConfig = NonNullable<SearchConfig['remote']>;
export type ToolRule = z.output<typeof ToolRuleSchema>;
export type ExposureConfig = CarteConfig['exposure'];
export type MenuConfig = CarteConfig['menu'];
export type ProjectConfig = z.output<typeof ProjectSchema>;
export type AuditConfig = CarteConfig['audit'];
export type StoreConfig = CarteConfig['store'];
export type RegistrationConfig = CarteConfig['registration'];
export type HttpConfig = CarteConfig['http'];
export type RateConfig = NonNullable<HttpConfig['rate']>;
export type AuthConfig = CarteConfig['auth'];
export type OidcConfig = NonNullable<AuthConfig['oidc']>;
export type SandboxConfig = CarteConfig['sandbox'];
export type { SandboxObjectConfig } from './schema-sandbox.js';
