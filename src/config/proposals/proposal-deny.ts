import { commandName, globMatch } from './proposal-allow.js';
import type { Problems, Segment } from '../problems/problems.js';

/** The rules every proposal is held to; `registration.deny` adds patterns, it cannot remove these. */
export const DEFAULT_DENY_RULES = [
  'a shell run with inline code (sh, bash, zsh, dash, ksh, fish -c; cmd /c; powershell -Command; npx -c)',
  'an interpreter run with inline code (node -e, python -c, perl -e, ruby -e, php -r, deno eval)',
  'a pipe into a shell (| sh, | bash, | iex)',
  '".." in the command or cwd',
  'shell metacharacters in the command (; & | ` $( < >)',
] as const;

const SHELLS = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash'];
/** Programs that run their first argument as the command: `env bash -c ...` is still bash. */
const WRAPPERS = ['env', 'sudo', 'doas', 'nohup', 'nice', 'busybox', 'exec', 'command', 'stdbuf', 'setsid'];

/** Short flags that make each interpreter run the next argument as code. */
const INLINE_CODE: readonly (readonly [RegExp, RegExp])[] = [
  [/^(node|nodejs|bun)$/, /^(-[a-z]*[ep]|--eval(=.*)?|--print(=.*)?)$/],
  [/^(python[0-9.]*|py|pypy[0-9.]*)$/, /^-[A-Za-z]*c$/],
  [/^perl[0-9.]*$/, /^-[A-Za-z]*[eE]$/],
  [/^(ruby|lua|osascript|Rscript|node)$/, /^-[a-z]*e$/],
  [/^php[0-9.]*$/, /^-[a-z]*r$/],
];

const POWERSHELL_INLINE =
  /^[-/](c(o(m(m(a(n(d)?)?)?)?)?)?|e|ec|en(c(o(d(e(d(c(o(m(m(a(n(d)?)?)?)?)?)?)?)?)?)?)?)?|commandwithargs|cwa)$/i;
const PIPE_TO_SHELL =
  /\|\s*(sudo\s+)?(\S*[\\/])?(sh|bash|zsh|dash|ksh|fish|csh|tcsh|pwsh|powershell|cmd|iex|invoke-expression)(\.exe)?(\s|$|;|\))/i;
const METACHARACTERS = /[;&|`<>\r\n]|\$\(/;

interface DenyContext {
  at: Segment[];
  /** `registration.deny`: globs over the whole command line (or URL), or /regex/flags. */
  deny: readonly string[];
}

/** Adds a problem for each built-in rule and each `registration.deny` pattern the server breaks. */
export function checkDeny(s: Record<string, unknown>, ctx: DenyContext, out: Problems): void {
  const { at } = ctx;
  const args = Array.isArray(s.args) ? s.args.filter((a): a is string => typeof a === 'string') : [];
  const line =
    typeof s.command === 'string' ? [s.command, ...args].join(' ') : typeof s.url === 'string' ? s.url : '';
  if (typeof s.command === 'string') {
    if (METACHARACTERS.test(s.command))
      out.error(
        [...at, 'command'],
        'has shell metacharacters (; & | ` $( < >); a command is one program, and its arguments go in "args"',
      );
    for (const key of ['command', 'cwd'] as const) {
      const value = s[key];
      if (typeof value === 'string' && value.split(/[\\/]/).includes('..'))
        out.error([...at, key], 'goes up with ".."; give the path without ".." (an absolute path)');
    }
    const inline = inlineCode(s.command, args);
    if (inline !== undefined) out.error([...at, 'command'], inline);
    if (PIPE_TO_SHELL.test(line))
      out.error(at, 'pipes into a shell; propose the server program itself, not a shell pipeline');
  }
  for (const pattern of ctx.deny) {
    const hit = denyMatch(pattern, line);
    if (hit === 'bad')
      out.error(
        at,
        `registration.deny pattern ${JSON.stringify(pattern)} is not a valid regular expression; every proposal is refused until it is fixed`,
      );
    else if (hit) out.error(at, `matches the registration.deny pattern ${JSON.stringify(pattern)}`);
  }
}

/** Why the command runs inline shell or interpreter code, or undefined. */
function inlineCode(command: string, allArgs: readonly string[]): string | undefined {
  let name = commandName(command);
  let args = [...allArgs];
  for (let hops = 0; WRAPPERS.includes(name) && hops < 4; hops++) {
    const at = args.findIndex((a) => !a.startsWith('-') && !/^[A-Za-z_]\w*=/.test(a));
    if (at < 0) return undefined;
    name = commandName(args[at]!);
    args = args.slice(at + 1);
  }
  const options = optionsOf(args);
  const shell = (flag: string) =>
    `runs ${name} with ${JSON.stringify(flag)}, which executes inline shell code; propose the server program itself`;
  const code = (flag: string) =>
    `runs ${name} with ${JSON.stringify(flag)}, which executes inline code; propose a script or package instead`;
  if (SHELLS.includes(name)) {
    const flag = options.find((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a) || a === '--command');
    return flag === undefined ? undefined : shell(flag);
  }
  if (name.toLowerCase() === 'cmd') {
    const flag = args.find((a) => /^\/[ck]$/i.test(a));
    return flag === undefined ? undefined : shell(flag);
  }
  if (/^(powershell|pwsh)$/i.test(name)) {
    const flag = args.find((a) => POWERSHELL_INLINE.test(a));
    return flag === undefined ? undefined : shell(flag);
  }
  if (name === 'npx' || (name === 'npm' && /^(exec|x)$/.test(args[0] ?? ''))) {
    const flag = args.find((a) => a === '-c' || a === '--call' || a.startsWith('--call='));
    return flag === undefined ? undefined : shell(flag.replace(/=.*/s, ''));
  }
  if (name === 'deno' && args[0] === 'eval') return code('eval');
  for (const [program, flagShape] of INLINE_CODE) {
    if (!program.test(name)) continue;
    const flag = options.find((a) => flagShape.test(a));
    if (flag !== undefined) return code(flag.replace(/=.*/s, ''));
  }
  return undefined;
}

/** Options that take the next argument as their value (shells' -o, node's -r, python's -W). */
const VALUED = ['-o', '+o', '-O', '+O', '-r', '--require', '--import', '--loader', '-C', '-W', '-X'];

/** The options before the first positional argument (where a script's own arguments begin). */
function optionsOf(args: readonly string[]): string[] {
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') && !a.startsWith('+')) break;
    if (a === '--') break;
    options.push(a);
    if (VALUED.includes(a)) i++;
  }
  return options;
}

/**
 * A `/regex/flags` pattern is searched for; any other is a glob over the whole line, ignoring
 * case. A regex that does not compile is 'bad': refusing beats a deny rule that silently never fires.
 */
function denyMatch(pattern: string, line: string): boolean | 'bad' {
  const regex = /^\/(.+)\/([dgimsuy]*)$/s.exec(pattern);
  if (regex) {
    try {
      return new RegExp(regex[1]!, regex[2]!.replace('g', '')).test(line);
    } catch {
      return 'bad';
    }
  }
  return globMatch(pattern.toLowerCase(), line.toLowerCase());
}
