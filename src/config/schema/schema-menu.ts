// The menu's part of the config schema: call classes and categories (vocabularies rules use),
// tool rules, the menu (hot list) and how tools are exposed.
import { z } from 'zod';

/** What a call may do, from least to most (docs/security.md, "Call classes"). */
export const CALL_CLASSES = ['read', 'write', 'destructive'] as const;
export type CallClass = (typeof CALL_CLASSES)[number];

/** The categories a rule may put tools in (docs/menu.md). */
export const CATEGORY_IDS = [
  'code',
  'files',
  'web',
  'documents',
  'data',
  'infra',
  'ai',
  'security',
  'communication',
  'utilities',
] as const;

export type CategoryId = (typeof CATEGORY_IDS)[number];

/** Most use cases one rule may give, and the longest one: phrases a person writes, not documents. */
export const USE_CASES_MAX = 20;
export const USE_CASE_MAX_CHARS = 200;

/** One tool rule: which tools it matches and what it sets on them (docs/menu.md, "Rules"). */
export const ToolRuleSchema = z
  .strictObject({
    match: z
      .union([z.string(), z.array(z.string()).min(1)])
      .describe(
        'A pattern or a list of patterns, matched against the tool name and its "server/tool" key: a glob (create_*, *github*, [a-c]*, {get,list}_*; case-sensitive), a regex written /.../flags, or either behind "!" to exclude. A list matches when any plain pattern matches and no "!" pattern does.',
      ),
    server: z
      .string()
      .min(1)
      .optional()
      .describe("Apply the rule only to this server's tools. No default: every server."),
    enabled: z
      .boolean()
      .optional()
      .describe(
        'Show (true) or hide (false) the tools it matches; the first matching rule that sets it decides. Once any rule says true, a tool that no rule with "enabled" matches is hidden. No default: the rule does not decide.',
      ),
    tags: z
      .array(z.string().min(1))
      .default([])
      .describe('Tags added to the tools it matches; the tags of every matching rule add up.'),
    useCases: z
      .array(z.string().min(1).max(USE_CASE_MAX_CHARS))
      .max(USE_CASES_MAX)
      .optional()
      .describe(
        `Intent phrases for the tools it matches ("save a note to disk"), at most ${USE_CASES_MAX} of ${USE_CASE_MAX_CHARS} characters each: search reads them like a description, and \`carte tools\` and describe_tool show them; the use cases of every matching rule add up. No default: none.`,
      ),
    category: z
      .enum(CATEGORY_IDS)
      .optional()
      .describe(
        'The category of the tools it matches; the last matching rule that sets it wins. No default: the category Carte assigns.',
      ),
    pin: z
      .boolean()
      .optional()
      .describe(
        'Pin (true) or unpin (false) the tools it matches in the menu; the last matching rule that sets it wins. No default: not pinned.',
      ),
    class: z
      .enum(CALL_CLASSES)
      .optional()
      .describe(
        'The call class of the tools it matches (read, write or destructive), over what their annotations say; the last matching rule that sets it wins. No default: from the annotations.',
      ),
  })
  .describe('A tool rule: the tools it matches, and what it sets on them.');

/** run_code (issue 43, docs/code-mode.md): one script calls many tools, only its answer returns. */
const CodeSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        'List the run_code meta-tool (meta mode only): a JavaScript script that calls tools with the same rules as call_tool. Default false.',
      ),
    timeoutMs: z
      .int()
      .min(100)
      .max(600_000)
      .default(30_000)
      .describe("A script's wall time, waiting on calls included; past it the script is stopped. Default 30000."),
    memoryMb: z
      .int()
      .min(8)
      .max(1024)
      .default(64)
      .describe("A script's heap in its interpreter, in MB. Default 64."),
    maxCalls: z
      .int()
      .min(1)
      .max(10_000)
      .default(200)
      .describe('Tool calls and searches one script may make; the next one stops it. Default 200.'),
    maxOutputTokens: z
      .int()
      .min(100)
      .max(100_000)
      .default(4_000)
      .describe("The answer's size (the returned value and logs), in o200k_base tokens; past it the answer is cut, with a note. Default 4000."),
  })
  .describe('run_code: scripts that call tools, only their answer entering the context (docs/code-mode.md).');

/** How `tools/list` shows upstream tools: the four meta-tools, or the hot tools themselves. */
export const ExposureSchema = z
  .strictObject({
    mode: z
      .enum(['meta', 'direct'])
      .default('meta')
      .describe(
        'What tools/list shows an agent: meta (the four meta-tools) or direct (the hot tools themselves, under provider-safe names, plus search_tools; tools found by search are added).',
      ),
    maxTools: z
      .int()
      .min(1)
      .max(500)
      .default(50)
      .describe(
        'In direct mode, most upstream tools listed at once per session; past it the least recently used is dropped.',
      ),
    code: CodeSchema.prefault({}),
  })
  .describe('How upstream tools are shown to agents (docs/config.md, "Direct mode").');

/** The menu agents browse (docs/menu.md, "Tiers"). */
export const MenuSchema = z
  .strictObject({
    hotList: z
      .number()
      .int()
      .min(0)
      .max(50)
      .default(12)
      .describe('Tools in the hot list: pinned ones first, then the most used. 0 turns it off. Default 12.'),
    halfLifeDays: z
      .number()
      .positive()
      .max(365)
      .default(7)
      .describe("How fast a call's weight in the hot list fades: it halves every this many days. Default 7."),
  })
  .describe('The menu agents browse with browse_tools: the hot list.');
