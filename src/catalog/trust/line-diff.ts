// A small unified-style line diff for `carte approvals` (what changed in a drifted tool). Tool
// text is short, so a longest-common-subsequence table over the lines between the common prefix
// and suffix is cheap; past LINE_DIFF_DEFAULTS.maxCells the middle is shown as removed then added.

/** Lines of context around each change, and the largest LCS table built. */
export const LINE_DIFF_DEFAULTS = { context: 2, maxCells: 1_000_000 } as const;

type Op = { op: ' ' | '-' | '+'; line: string };

/**
 * A unified diff of two texts: `--- <labels[0]>`, `+++ <labels[1]>`, then `@@ -a,b +c,d @@`
 * hunks. Empty when the texts are equal.
 */
export function lineDiff(
  before: string,
  after: string,
  labels: [string, string] = ['before', 'after'],
  context: number = LINE_DIFF_DEFAULTS.context,
): string {
  if (before === after) return '';
  const ops = diffLines(before.split('\n'), after.split('\n'));
  return [`--- ${labels[0]}`, `+++ ${labels[1]}`, ...hunks(ops, context)].join('\n');
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const same = (lines: readonly string[]): Op[] => lines.map((line) => ({ op: ' ', line }));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  return [...same(a.slice(0, head)), ...diffMiddle(midA, midB), ...same(a.slice(a.length - tail))];
}

function diffMiddle(a: readonly string[], b: readonly string[]): Op[] {
  const removed = (lines: readonly string[]): Op[] => lines.map((line) => ({ op: '-', line }));
  const added = (lines: readonly string[]): Op[] => lines.map((line) => ({ op: '+', line }));
  if ((a.length + 1) * (b.length + 1) > LINE_DIFF_DEFAULTS.maxCells) return [...removed(a), ...added(b)];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..]
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Op[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ op: ' ', line: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      ops.push({ op: '-', line: a[i++]! }); // removals first on a tie, as unified diffs show them
    } else {
      ops.push({ op: '+', line: b[j++]! });
    }
  }
  return ops;
}

/** Groups changes with `context` lines around them into `@@` hunks. */
function hunks(ops: readonly Op[], context: number): string[] {
  const out: string[] = [];
  const changed = ops.map((o, k) => (o.op === ' ' ? -1 : k)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - context);
    let end = changed[k]!;
    while (k + 1 < changed.length && changed[k + 1]! - end <= 2 * context + 1) end = changed[++k]!;
    end = Math.min(ops.length - 1, end + context);
    k++;
    const before = ops.slice(0, start);
    const oldStart = before.filter((o) => o.op !== '+').length + 1;
    const newStart = before.filter((o) => o.op !== '-').length + 1;
    const body = ops.slice(start, end + 1);
    const oldCount = body.filter((o) => o.op !== '+').length;
    const newCount = body.filter((o) => o.op !== '-').length;
    out.push(
      `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`,
      ...body.map((o) => `${o.op}${o.line}`),
    );
  }
  return out;
}
