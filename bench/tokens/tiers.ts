// PLUG-IN POINT (issue 14): the menu tiers T0..T3 are not built yet. When one is, fill in its
// `render` here; `npm run bench:tokens` then prints its size beside the meta and full listings.
// Nothing else in bench/tokens needs to change.
import type { ListedTool } from './listings.js';

/** A catalog as the bench measures it: a label and every tool an upstream lists. */
export interface MeasuredCatalog {
  label: string;
  tools: readonly ListedTool[];
}

export interface Tier {
  id: 'T0' | 'T1' | 'T2' | 'T3';
  /** One line on what an agent sees at this tier. */
  what: string;
  /**
   * The exact text an agent receives at this tier for `catalog` (what its MCP client is sent:
   * a `tools/list` answer, a meta-tool result's `content[0].text`...), or undefined while the
   * tier does not exist; the report then says "not yet".
   */
  render: (catalog: MeasuredCatalog) => string | undefined;
}

/** The tiers, leanest first. TODO(issue 14): define each tier's `what` and `render`. */
export const TIERS: readonly Tier[] = [
  { id: 'T0', what: 'to be defined (issue 14)', render: () => undefined },
  { id: 'T1', what: 'to be defined (issue 14)', render: () => undefined },
  { id: 'T2', what: 'to be defined (issue 14)', render: () => undefined },
  { id: 'T3', what: 'to be defined (issue 14)', render: () => undefined },
];
