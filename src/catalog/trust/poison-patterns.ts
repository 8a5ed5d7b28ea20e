// The phrase and character tables of the poisoning scanner (poison-scan.ts documents each rule,
// what it misses, and the flag rate on the bench catalogs). Phrase patterns run on normalised
// text (invisible characters dropped, tag characters decoded, NFKC, one space for any run of
// white space) and are case-insensitive.

/** Zero-width, bidi-control, tag and other format characters a person does not see. */
const INVISIBLE_CLASS =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E' +
  '\\u2060-\\u2064\\u2066-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}';

/** One invisible character (global: for stripping). */
// eslint-disable-next-line no-misleading-character-class -- each one on its own, combining ones included
export const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'gu');

/**
 * Characters that are suspect wherever they stand: bidi embeddings, overrides and isolates
 * (Trojan Source), zero-width spaces and word joiners, Hangul fillers, tag characters (ASCII
 * smuggling). Soft hyphens are not here: they are ordinary in hyphenated text.
 */
/* eslint-disable no-misleading-character-class -- combining characters listed one by one */
export const ALWAYS_HIDDEN =
  /[\u115F\u1160\u17B4\u17B5\u180E\u200B\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFFA0\u{E0000}-\u{E007F}]/u;
/* eslint-enable no-misleading-character-class */

/** A run of two or more variation selectors: one after an emoji is ordinary, a run carries bytes. */
export const SELECTOR_RUN = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{2,}/u;

/**
 * Joiners and directional marks (ZWNJ, ZWJ, LRM, RLM, ALM) are ordinary next to emoji and in
 * scripts that join or run right to left; elsewhere (amid Latin text) they hide something.
 */
export const CONTEXT_MARK = /[\u061C\u200C-\u200F]/gu;
export const MARK_NEIGHBOUR =
  /[\p{Extended_Pictographic}\p{M}]|(?!\p{Script=Latin})(?!\p{Script=Common})\p{L}/u;

/** A byte order mark is harmless at the very start of a string (a sloppy file read). */
export const BOM = '\uFEFF';

/** Tag characters U+E0020-E007E mirror ASCII: decoded, they show what was smuggled. */
export function decodeTags(text: string): string {
  return text.replace(/[\u{E0000}-\u{E007F}]/gu, (c) => {
    const cp = c.codePointAt(0)! - 0xe0000;
    return cp >= 0x20 && cp < 0x7f ? String.fromCharCode(cp) : '';
  });
}

const p = (source: string) => new RegExp(source, 'i');

/** `model-instructions`: text that speaks to the model over the user's head. */
export const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  // "ignore all previous instructions", "disregard the system prompt"
  p(
    String.raw`\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|these|those)\s+)*(?:previous|prior|above|earlier|preceding|original|system|existing|other|former|safety)\s+(?:\w+\s+)?(?:instructions?|prompts?|rules|guidelines|directives|messages|context|constraints)\b`,
  ),
  p(
    String.raw`\b(?:ignore|disregard|forget|override)\s+(?:all\s+)?(?:your|the\s+system'?s?)\s+(?:instructions|system\s+prompt|guidelines|rules|programming)\b`,
  ),
  // concealment from the user: "do not tell the user", "without informing the user"
  p(
    String.raw`\b(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|without)\s+(?:\w+\s+){0,2}?(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|notify(?:ing)?|alert(?:ing)?|warn(?:ing)?)\s+(?:\w+\s+){0,2}?(?:the\s+)?users?\b`,
  ),
  p(String.raw`\b(?:hide|conceal|keep)\b[^.]{0,40}\bfrom\s+the\s+users?\b`),
  p(
    String.raw`\bthe\s+users?\s+(?:must|should|will|does|need)\s*(?:not|n't|never)\s+(?:know|see|notice|find\s+out|be\s+(?:told|informed|aware))`,
  ),
  // tags a model reads as authority; chat-template tokens
  p(
    String.raw`<\s*/?\s*(?:important|system|system[-_ ]?(?:prompt|message|instructions?)|instructions?|hidden|secret|admin|critical|sys|assistant|developer|ai[-_ ]?(?:instructions?|note)|note[-_ ]to[-_ ](?:ai|assistant|model))(?:\s[^<>]{0,60})?\s*>`,
  ),
  p(String.raw`<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]|<</?SYS>>`),
  // speaking to the model by name or role
  p(
    String.raw`\b(?:note|reminder|message)\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|llm|claude|chatgpt)\b`,
  ),
  p(String.raw`\byou\s+are\s+now\b|\bnew\s+(?:system\s+)?instructions?\s*:`),
  p(
    String.raw`\bthis\s+is\s+an?\s+(?:system|developer|admin(?:istrator)?)\s+(?:message|instruction|override)`,
  ),
  p(String.raw`\b(?:reveal|print|output|repeat|leak|show)\s+(?:your|the)\s+system\s+prompt\b`),
  // "before using this tool, read ~/.cursor/mcp.json": a file read demanded as a precondition
  p(
    String.raw`\bbefore\s+(?:using|calling|invoking|running|executing)\s+(?:this|the|any)\s+(?:\w+\s+)?(?:tool|function)s?\b[^.]{0,80}?\b(?:read|open|cat|load|access|fetch)\s+(?:the\s+)?(?:contents?\s+of\s+)?(?:the\s+)?(?:file\s+)?[\x60'"]?(?:~|/|\.{1,2}/|[\w.-]+\.(?:json|env|txt|ya?ml|toml|ini|conf|cfg|pem|key|log)\b)`,
  ),
];

/** Files and places that hold secrets (strong enough to flag with any access verb). */
const SECRET_PLACES = String.raw`(?:~/\.ssh\b|\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w./-])\.env(?:\.\w+)?\b|\bmcp\.json\b|\bclaude_desktop_config(?:\.json)?\b|\.cursor/|~/\.aws\b|\.aws/credentials|\.git-credentials\b|\.netrc\b|\.npmrc\b|\.pypirc\b|\.docker/config\.json|\.kube/config\b|/etc/(?:passwd|shadow)\b|\bwallet\.dat\b|\bseed\s+phrases?\b|\bkeychain\b)`;
/** Secrets named in general: flagged only when taken from somewhere or from someone. */
const SECRET_KINDS = String.raw`(?:api[\s_-]?keys?|access[\s_-]?tokens?|auth(?:entication)?[\s_-]?tokens?|bearer\s+tokens?|private\s+keys?|passwords?|secrets?|credentials?|environment\s+variables|env\s+vars?|cookies|session\s+tokens?)`;
/** Imperative or infinitive verbs of taking or handing over ("read", never "reads": a tool saying what it does is fine). */
const TAKE = String.raw`\b(?:read|cat|open|load|access|include|send|pass|upload|extract|collect|dump|print|output|copy|share|forward|attach|retrieve|fetch|get|grab|steal|exfiltrate|leak|append|embed|paste|insert|add)\b`;
/** Words that may stand between such a verb and its object ("read the contents of the file at"). */
const FILLER = String.raw`(?:(?:the|a|an|your|user'?s|their|its|all|any|every|contents?|of|file|files|at|from|in|and|key|keys|private|ssh|config|configuration|credentials?|data|also|too)\s+|[\x60'"(])`;
/** Who or where the secrets are taken from, for secrets named in general. */
const WHOSE = String.raw`(?:all|every|any|the\s+user'?s|user'?s|their|stored|saved|local|current)\s+`;
/** Verbs of handing over only: "access" and "get" are nouns or ordinary for secrets in general. */
const HAND_OVER = String.raw`\b(?:read|include|send|pass|upload|extract|collect|dump|print|output|copy|share|forward|attach|exfiltrate|leak|append|embed|paste|steal|grab)\b`;

/** `secret-access`: a request to read or hand over secrets. */
export const SECRET_PATTERNS: readonly RegExp[] = [
  p(String.raw`${TAKE}\s+${FILLER}{0,6}${SECRET_PLACES}`),
  p(String.raw`${HAND_OVER}\s+(?:\w+\s+){0,2}?${WHOSE}(?:\w+\s+){0,2}?${SECRET_KINDS}`),
];

/** What is someone else's to see: the conversation, file contents, the user's data. */
const PRIVATE_DATA = String.raw`(?:(?:the\s+)?(?:full\s+|entire\s+|complete\s+|whole\s+)?(?:conversation|chat)\s+(?:history|log|transcript)|(?:message|chat|conversation)\s+history|(?:your|the)\s+system\s+prompt|(?:its|their|the\s+file'?s|the\s+files'?)\s+contents?|(?:the\s+)?contents?\s+of\s+(?:the\s+|this\s+|that\s+|any\s+|all\s+|every\s+|each\s+)?(?:file|files|directory|folder|~|/|\.|[\x60'"])|(?:last|recent|previous|earlier)\s+(?:\w+\s+)?(?:messages|chats|emails|conversations)|everything\s+(?:the\s+user|above)|all\s+(?:files|messages|emails|data|secrets|keys|credentials|tokens|passwords)|(?:the\s+)?user'?s\s+(?:data|files|messages|emails|history|secrets|credentials))`;

/** `exfiltration`: a request to move private data into a parameter or to somewhere else. */
export const EXFIL_PATTERNS: readonly RegExp[] = [
  p(
    String.raw`\b(?:send|post|upload|forward|transmit|exfiltrate|leak|copy|append|include|pass|put|embed|attach|add|insert|paste)\s+(?:\w+\s+){0,3}?${PRIVATE_DATA}[^.]{0,80}?\b(?:to|into|in|inside|as|within|via)\b`,
  ),
  // data sent to a fixed address: "send the results to https://..."
  p(
    String.raw`\b(?:send|post|upload|forward|transmit|report|exfiltrate|beacon|leak)\s+(?:\w+\s+){0,4}?(?:data|contents?|results?|output|conversation|history|messages?|files?|secrets?|keys?|credentials?|tokens?|everything)\s+(?:\w+\s+){0,3}?(?:to|at)\s+(?:the\s+)?(?:(?:webhook|endpoint|server|url)\s+)?(?:at\s+)?https?://`,
  ),
  // a markdown image whose address has a slot to fill: rendering it sends the data
  p(String.raw`!\[[^\]]*\]\(\s*https?://[^)\s]*(?:\{|\$|%7B|<)[^)]*\)`),
];
