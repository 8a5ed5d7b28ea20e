/** Longest summary shown in search and browse results, in characters. */
const MAX_SUMMARY = 160;

/**
 * A one-line summary of a tool description: the first sentence or line, cut at a word boundary.
 * The text is untrusted upstream data; it is only ever returned as data, never interpreted.
 */
export function summarize(description: string | null | undefined): string {
  if (!description) return '';
  const flat = description.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?。！？])(\s|$)/u.exec(flat)?.[1] ?? flat;
  if (sentence.length <= MAX_SUMMARY) return sentence;
  const cut = sentence.slice(0, MAX_SUMMARY - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_SUMMARY / 2 ? cut.slice(0, space) : cut}…`;
}

/** A count as people write it: `1 tool`, `0 tools`, `7,011 tools` (irregular plurals passed in). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}
