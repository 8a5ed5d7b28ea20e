// Who may see which tool, and how the menu files it: one verdict per tool, computed once per
// catalog or config change and applied before ranking, so every view (search, browse, describe,
// call, suggestions, counts) agrees. Rules (rules.ts) decide visibility, tags, use cases, category
// and pins; the stored automatic category and tags fill in what no rule sets.
import { createHash } from 'node:crypto';
import type { CallClass, CategoryId } from '../config/index.js';
import { evaluateRules, type CompiledRules, type RuleDecision } from './rules.js';

/** A configured server as the policy sees it. */
export interface PolicyServer {
  id: string;
  enabled: boolean;
}

/** A catalog tool as the policy sees it: its key `server/name`. */
export interface PolicyTool {
  key: string;
  server: string;
  name: string;
}

/** A tool's automatic category and tags, as stored at discovery. */
export interface StoredCategory {
  category: CategoryId;
  tags: readonly string[];
}

/** The category of a tool neither a rule nor the categoriser has filed yet. */
export const UNFILED_CATEGORY: CategoryId = 'utilities';

/** Why a tool is visible or not, and how the menu files it. */
export interface ToolVerdict {
  /** The caller may see it; hidden tools answer exactly like unknown ones. */
  visible: boolean;
  /** Its server is enabled, so it is searchable and callable (a disabled server's tools are only describable). */
  enabled: boolean;
  /** Index of the rule whose `enabled` decided, or null (no rule did). */
  decidedBy: number | null;
  /** The rule's category, else the stored automatic one, else UNFILED_CATEGORY. */
  category: CategoryId;
  /** Rule tags first, then the automatic ones, without repeats. */
  tags: readonly string[];
  /** Intent phrases rules attach to it, in rule order (search reads them like a description). */
  useCases?: readonly string[];
  /** Pinned to the top of the hot list by a rule (only ever true for a visible tool). */
  pinned: boolean;
  /** A rule's call class for it, over what its annotations say. */
  ruleClass?: CallClass;
  /** Why it is held back (a scanner finding or a change since approval), when it is. */
  quarantined?: string;
}

/** What one policy is computed from. */
export interface PolicyInput {
  servers: readonly PolicyServer[];
  tools: Iterable<PolicyTool>;
  rules?: CompiledRules;
  categories?: ReadonlyMap<string, StoredCategory>;
  /** Quarantined tools and why: invisible to every caller until a person approves them. */
  quarantined?: ReadonlyMap<string, string>;
}

/** The verdicts for one catalog and config. */
export class VisibilityPolicy {
  private readonly verdicts: ReadonlyMap<string, ToolVerdict>;
  private keys: string[] | undefined;
  private listedKeysCache: string[] | undefined;
  private print: string | undefined;

  private constructor(verdicts: Map<string, ToolVerdict>) {
    this.verdicts = verdicts;
  }

  /** Decides every tool once: a tool of a server no longer configured is invisible. */
  static compute(input: PolicyInput): VisibilityPolicy {
    const servers = new Map(input.servers.map((s) => [s.id, s]));
    const tools = [...input.tools];
    const decisions: Map<string, RuleDecision> | undefined =
      input.rules && input.rules.rules.length > 0 ? evaluateRules(input.rules, tools) : undefined;
    const verdicts = new Map<string, ToolVerdict>();
    for (const t of tools) {
      const server = servers.get(t.server);
      const d = decisions?.get(t.key);
      const stored = input.categories?.get(t.key);
      const held = input.quarantined?.get(t.key);
      const visible = server !== undefined && (d?.visible ?? true) && held === undefined;
      const tags = d?.tags.length ? [...new Set([...d.tags, ...(stored?.tags ?? [])])] : (stored?.tags ?? []);
      verdicts.set(t.key, {
        visible,
        enabled: server?.enabled === true,
        decidedBy: d?.decidedBy ?? null,
        category: d?.category ?? stored?.category ?? UNFILED_CATEGORY,
        tags,
        pinned: visible && d?.pinned === true,
        ...(d?.useCases.length ? { useCases: d.useCases } : {}),
        ...(d?.callClass ? { ruleClass: d.callClass } : {}),
        ...(held !== undefined ? { quarantined: held } : {}),
      });
    }
    return new VisibilityPolicy(verdicts);
  }

  /** Whether the caller may see the tool (describe it, find it suggested). */
  canSee(key: string): boolean {
    return this.verdicts.get(key)?.visible === true;
  }

  /** Whether the tool belongs in rankings and listings: visible, and its server enabled. */
  isListed(key: string): boolean {
    const v = this.verdicts.get(key);
    return v !== undefined && v.visible && v.enabled;
  }

  /**
   * Whether the tool belongs in the shared search index: its server is configured and enabled and
   * it is not quarantined. Rules do not count here: each search keeps only what its caller's
   * policy lists (a project's rules may show what the global ones leave out in whitelist mode).
   */
  isIndexed(key: string): boolean {
    const v = this.verdicts.get(key);
    return v !== undefined && v.enabled && v.quarantined === undefined;
  }

  verdict(key: string): ToolVerdict | undefined {
    return this.verdicts.get(key);
  }

  /** Every tool with its verdict, hidden ones included (for the operator's `carte tools`), sorted by key. */
  all(): [string, ToolVerdict][] {
    return [...this.verdicts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Every visible key, sorted (the pool "did you mean" draws from). */
  visibleKeys(): readonly string[] {
    this.keys ??= [...this.verdicts]
      .filter(([, v]) => v.visible)
      .map(([k]) => k)
      .sort();
    return this.keys;
  }

  /** Every listed key (visible, server enabled), sorted: what menus page through. */
  listedKeys(): readonly string[] {
    this.listedKeysCache ??= this.visibleKeys().filter((k) => this.verdicts.get(k)!.enabled);
    return this.listedKeysCache;
  }

  /** Listed pinned tools, sorted by key. */
  pinnedKeys(): string[] {
    return this.listedKeys().filter((k) => this.verdicts.get(k)!.pinned);
  }

  /**
   * A digest of what menus show: every listed key with its category. Equal for equal catalogs
   * and rules (also across restarts), so a browse cursor can tell that its pages still hold.
   */
  fingerprint(): string {
    if (this.print === undefined) {
      const h = createHash('sha256');
      for (const k of this.listedKeys()) h.update(`${k}\t${this.verdicts.get(k)!.category}\n`);
      this.print = h.digest('base64url').slice(0, 10);
    }
    return this.print;
  }
}

/** Splits a catalog key `server/name` (server ids never contain `/`). */
export function policyTool(key: string): PolicyTool {
  const slash = key.indexOf('/');
  return { key, server: key.slice(0, slash), name: key.slice(slash + 1) };
}
