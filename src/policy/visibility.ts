// Who may see which tool: one verdict per tool, computed once per catalog or config change and
// applied before ranking, so every view (search, browse, describe, call, suggestions) agrees.

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

/** Why a tool is visible or not, for `carte tools` and the menu. */
export interface ToolVerdict {
  /** The caller may see it; hidden tools answer exactly like unknown ones. */
  visible: boolean;
  /** Its server is enabled, so it is searchable and callable (a disabled server's tools are only describable). */
  enabled: boolean;
}

/** The verdicts for one catalog and config. */
export class VisibilityPolicy {
  private readonly verdicts: ReadonlyMap<string, ToolVerdict>;
  private keys: string[] | undefined;

  private constructor(verdicts: Map<string, ToolVerdict>) {
    this.verdicts = verdicts;
  }

  /** Decides every tool once: a tool of a server no longer configured is invisible. */
  static compute(input: { servers: readonly PolicyServer[]; tools: Iterable<PolicyTool> }): VisibilityPolicy {
    const servers = new Map(input.servers.map((s) => [s.id, s]));
    const verdicts = new Map<string, ToolVerdict>();
    for (const t of input.tools) {
      const server = servers.get(t.server);
      verdicts.set(t.key, { visible: server !== undefined, enabled: server?.enabled === true });
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

  verdict(key: string): ToolVerdict | undefined {
    return this.verdicts.get(key);
  }

  /** Every visible key, sorted (the pool "did you mean" draws from). */
  visibleKeys(): readonly string[] {
    this.keys ??= [...this.verdicts]
      .filter(([, v]) => v.visible)
      .map(([k]) => k)
      .sort();
    return this.keys;
  }
}

/** Splits a catalog key `server/name` (server ids never contain `/`). */
export function policyTool(key: string): PolicyTool {
  const slash = key.indexOf('/');
  return { key, server: key.slice(0, slash), name: key.slice(slash + 1) };
}
