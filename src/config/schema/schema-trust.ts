// The trust part of the config schema: projects, the audit log, registration (docs/security.md).
import { z } from 'zod';
import { SERVER_ID_PATTERN } from './server-id-pattern.js';
import { CALL_CLASSES, ToolRuleSchema } from './schema-menu.js';
import { SearchSchema } from './schema-search.js';
import { RateSchema } from './schema-rate.js';

/** One project: the servers it sees, its own rules (after the global ones) and what it may call. */
export const ProjectSchema = z
  .strictObject({
    servers: z
      .array(z.string().regex(SERVER_ID_PATTERN))
      .describe('The ids of the servers this project sees; tools of other servers do not exist for it.'),
    rules: z
      .array(ToolRuleSchema)
      .default([])
      .describe("Tool rules applied after the global ones, for this project's callers only."),
    hotList: z
      .int()
      .min(0)
      .max(50)
      .optional()
      .describe("Tools in this project's hot list. No default: menu.hotList."),
    deny: z
      .array(z.enum(CALL_CLASSES))
      .default([])
      .describe('Call classes this project may never call, e.g. [destructive].'),
    confirm: z
      .array(z.enum(CALL_CLASSES))
      .default([])
      .describe(
        'Call classes that need a person to confirm each call (asked through the client when it supports elicitation, else refused).',
      ),
    rate: RateSchema.optional().describe(
      'Requests per minute (or second) each token of this project may make over HTTP, e.g. "600/m"; a token created with --rate keeps its own. No default: http.rate.',
    ),
    search: SearchSchema.optional().describe(
      "How this project's callers' searches rank, replacing the top-level search section whole (e.g. lexical here, remote elsewhere). No default: the top-level search.",
    ),
  })
  .describe('A project: a bounded view of the catalog for the callers (tokens) that belong to it.');

/** The audit log (docs/security.md, "Audit log"). */
export const AuditSchema = z
  .strictObject({
    arguments: z
      .enum(['digest', 'redacted'])
      .default('digest')
      .describe(
        'What the audit keeps of call arguments: a digest only (default), or the arguments with secrets redacted.',
      ),
    retentionDays: z.int().min(1).max(3650).default(90).describe('Days audit rows are kept. Default 90.'),
  })
  .describe('The audit log: every search, browse, describe, call and admin action.');

/** Where the store lives (docs/operations.md, "Running Carte for a team"). */
export const StoreSchema = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A PostgreSQL URL (postgres://user:password@host:5432/db) shared by a team\'s replicas; ${env:NAME} works here, and CARTE_DATABASE_URL wins over it. Absent: SQLite in the data dir.',
      ),
    leaseSeconds: z
      .int()
      .min(2)
      .max(3600)
      .default(60)
      .describe(
        "PostgreSQL: seconds a replica's lease lives without renewal (it renews every quarter of that); then another replica marks its calls in flight interrupted. Default 60.",
      ),
  })
  .describe('The store: SQLite in the data dir by default, or a PostgreSQL database for a team.');

/** Registration of new servers (docs/security.md, "Registration"). */
export const RegistrationSchema = z
  .strictObject({
    allow: z
      .strictObject({
        commands: z
          .array(z.string().min(1))
          .default([])
          .describe('Commands approved at once (wildcards * and ?).'),
        packages: z
          .array(z.string().min(1))
          .default([])
          .describe('npm, npx, uvx or docker packages approved at once (wildcards), read from the args.'),
        hosts: z
          .array(z.string().min(1))
          .default([])
          .describe('Hosts of remote servers approved at once (wildcards, e.g. *.example.com).'),
      })
      .prefault({})
      .describe(
        'What a proposal must match to be approved without a person; anything else waits as pending.',
      ),
    deny: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Patterns refused outright, matched against the command line. No default: shell interpreters run with -c and pipes into a shell.',
      ),
    agentRequests: z
      .boolean()
      .default(false)
      .describe('Offer agents a fifth meta-tool, request_server, to propose a server. Default false.'),
  })
  .describe('Who may add servers, and which are approved without a person.');
