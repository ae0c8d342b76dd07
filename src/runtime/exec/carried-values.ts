// A caller's value reaches a shell's `-c` script without being spliced into it in two ways: as an
// argument after the script (a positional parameter, `"$1"`, `"$@"`) and on its stdin (a variable
// that `read` or `mapfile` fills). rye checks no such value: it is whatever the caller sent. So each
// expansion of a variable that carries one is judged where it stands, exactly as a placeholder there
// would be, and only where any text is data (shell-context.ts gives the role):
//   - the form is one of the data forms, inside double quotes: "$1", "${1}", "$name", "$@";
//   - the position takes any value: a data command's argument that cannot start an option (after
//     `--`; echo reads no option that takes code), printf's arguments after a %s-only format, a
//     string or file test's operand, an operand a program's grammar reads as data (python3 FILE "$1");
// a positional parameter carries when a caller's value fills it (all of them once the script moves
// them with shift, set or getopts); everything else is refused: an assignment's value or an exported one, a redirection's file name,
// an argument of any other program (sed -e, awk, git -c, compgen -W), any other expansion form
// (`$~1`, `${1@P}`, `${#1}`, `${1:-x}`), and every use in a script rye cannot read.
import { carriedUses } from "./shell-context.js";
import type { Rec } from "./shell-lexer.js";
import { scriptPlaceholders } from "./shell-script.js";

/** How caller values reach the script: as positional parameters, on stdin, or both. */
export interface Channels {
  /** The positional parameters that hold a caller's value (`$0` is 0); empty when none does. */
  positional: readonly number[];
  stdin: boolean;
}

/** A use of a carried value that is refused: the expansion as written and why. */
export interface CarriedRefusal {
  text: string;
  why: string;
}

// The positional parameters, and what holds them under other names: bash's `$_` (the last argument
// of the previous command), getopts' OPTARG, bash's BASH_ARGV and zsh's argv.
const POSITIONAL = /^(?:\d+|[@*_]|OPTARG|BASH_ARGV|argv)$/;
// A for loop's variable: `for f; do` walks "$@", `for l in $(cat)` walks stdin.
// `shift`, `set` and `getopts` move the positional parameters: then any of them may hold a value.
const MOVERS = /(?:^|[\s;&|(){}`])(?:shift|set|getopts)(?=[\s;&|)`]|$)/;
const LOOPS = /(?:^|[\s;&|(){}])(?:for|select)\s+([A-Za-z_][A-Za-z0-9_]*)/g;
const WORD = /^[\p{L}\p{N}_]+$/u;
// The commands that fill a variable from stdin, and the names they fill when given none.
const READERS = /(?:^|[\s;&|()`{}!])(?:read|mapfile|readarray|vared)\s([^;&|\n)`]*)/g;
const DEFAULT_READ = ["REPLY", "MAPFILE"];

/**
 * The names of the variables `read`, `mapfile`, `readarray` and `vared` may fill in `script`: every
 * word after them that could be a name (option arguments too: erring towards more carriers only
 * refuses more), and the defaults.
 */
export function stdinNames(script: string): Set<string> {
  const names = new Set(DEFAULT_READ);
  for (const m of script.matchAll(READERS)) {
    for (const w of m[1]!.split(/\s+/)) {
      const name = w.replace(/["'\\]/g, "");
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) names.add(name);
    }
  }
  return names;
}

/** Whether a variable carries a caller's value through `channels`. */
export function carriedBy(script: string, channels: Channels): (name: string) => boolean {
  const read = channels.stdin ? stdinNames(script) : new Set<string>();
  for (const m of script.matchAll(LOOPS)) read.add(m[1]!);
  const any = channels.positional.length > 0;
  const moved = any && MOVERS.test(script);
  const numbered = (name: string) => /^\d+$/.test(name) && (moved || channels.positional.includes(Number(name)));
  return (name) => (any && (/^\d+$/.test(name) ? numbered(name) : POSITIONAL.test(name))) || read.has(name);
}

/** Why a use of a carried value is not data, or null when it is. */
function useProblem(r: Rec): string | null {
  if (r.quote === "comment" || r.quote === "sq") return null;
  if (r.file === true) return `in a command that writes it into a file (${r.reason ?? ""}): a value never reaches a file, which a later command could run`;
  if (r.role !== "full") return r.reason ?? "where rye cannot read the script";
  if (r.target === true) return "as a redirection's file name, which is not checked when the value arrives this way (write `cat -- \"$1\"`)";
  if (r.noDash === true && r.dashData !== true) return "where it may start an argument read for options (write -- before it)";
  return null;
}

/** The first use of a carried value in `script` that is not data, or null. */
export function carriedRefusal(script: string, channels: Channels): CarriedRefusal | null {
  if (channels.positional.length === 0 && !channels.stdin) return null;
  const placeholders = scriptPlaceholders(script, (n) => WORD.test(n));
  for (const r of carriedUses(script, placeholders, carriedBy(script, channels))) {
    const why = useProblem(r);
    if (why !== null) return { text: r.use!.text, why };
  }
  return null;
}
