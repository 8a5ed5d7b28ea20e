// `carte audit --limit -1` used to say "Unknown option `-1`": the argument parser reads any word
// that starts with "-" as an option, so the value never reached the command's own check. Written
// `--limit=-1`, it does, and the command names the flag and the bad value (issue 40, item 6).
import type { CAC } from 'cac';

/** A negative number as typed: `-1`, `-0.5`, `-.5`, `-1e3`. */
const NEGATIVE = /^-(\d|\.\d)/;

/** Every spelling (`--limit`, `-n`) of an option that takes a value, in any command or globally. */
export function valueOptions(cli: CAC): Set<string> {
  const spellings = new Set<string>();
  for (const command of [cli.globalCommand, ...cli.commands])
    for (const option of command.options)
      if (!option.isBoolean)
        for (const name of option.rawName.replace(/[<[].*$/, '').split(','))
          if (name.trim() !== '') spellings.add(name.trim());
  return spellings;
}

/** `argv` with `--opt -1` joined as `--opt=-1` for the options that take a value (none after `--`). */
export function keepNegativeValues(argv: readonly string[], options: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (options.has(arg) && next !== undefined && NEGATIVE.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
