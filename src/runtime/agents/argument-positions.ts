// Where each argument of an agent command stands, so a placeholder value can never become an option
// of the agent binary: a value may begin with `-` only after a literal `--` or as the value of a
// literal option written just before it (`--model {model}`, `-p {prompt}`).
import { inertProblem } from "../exec/inert.js";
import { launchCode, launchCodeProblem } from "../exec/launch-code.js";
import { walkLaunchers } from "../exec/launchers.js";

/** One argument: literal strings and placeholders, concatenated. */
export type ArgTemplate = (string | { ph: string })[];

/** `positional`: a value starting with `-` here would be read as an option. */
export type ArgumentPosition = "command" | "after_double_dash" | "option_value" | "positional";

const literal = (parts: ArgTemplate): string | null => (parts.every((p) => typeof p === "string") ? parts.join("") : null);

/** The position of each argv word of a parsed command (argv[0] is the command). */
export function argumentPositions(argv: readonly ArgTemplate[]): ArgumentPosition[] {
  let dashes = false;
  return argv.map((word, i) => {
    if (i === 0) return "command";
    const previous = literal(argv[i - 1]!);
    const position: ArgumentPosition = dashes
      ? "after_double_dash"
      : previous !== null && i > 1 && /^-[^-=]|^--[^=]+$/.test(previous) && !previous.includes("=")
        ? "option_value"
        : "positional";
    if (literal(word) === "--") dashes = true;
    return position;
  });
}

/** The placeholder a word starts with, if it starts with one. */
export function leadingPlaceholder(word: ArgTemplate): string | null {
  const first = word[0];
  return first !== undefined && typeof first !== "string" ? first.ph : null;
}

// The agent binary named once, in `bin`, parses its own argv: a value inside one of its words is
// data. Any other program (a shell, an interpreter, a wrapper rye does not know) may read a word as
// code, so a value spliced into a larger word of it must be inert; a placeholder that is the script
// of a shell's -c is refused outright.
const AGENT_BIN = "\u0000bin";
/** Placeholders whose values come from rye itself (a temp file's path, the date) or the user's own `bin`. */
const OWN = new Set(["bin", "role_file", "date"]);

/**
 * Why `values` cannot fill `argv`, or null: each placeholder spliced into a larger word of a program
 * other than `{bin}` must hold an inert value (runtime/exec/inert.ts), and no placeholder may be the
 * `-c` script of a shell.
 */
export function splicedValueProblem(argv: readonly ArgTemplate[], values: Readonly<Record<string, string>>): string | null {
  const words = argv.map((w) => literal(w) ?? (w.length === 1 && typeof w[0] !== "string" && w[0]!.ph === "bin" ? AGENT_BIN : null));
  const launch = walkLaunchers(words);
  if (launch.proven && launch.program >= 0 && words[launch.program] === AGENT_BIN) return null;
  const program = launch.proven && launch.program >= 0 ? launch.name : "a program rye cannot see into";
  const code = launchCode(words);
  for (const [i, word] of argv.entries()) {
    const phs = word.filter((p): p is { ph: string } => typeof p !== "string");
    if (phs.length === 0) continue;
    if (launch.proven && launch.family && launch.script === i) {
      return `{${phs[0]!.ph}} is the script of ${launch.name} -c in the agent command, so its value would run as shell code; refused. Pass it as an argument after the script and read it as "$1"`;
    }
    for (const p of phs) {
      const refused = OWN.has(p.ph) ? null : launchCodeProblem(code, `{${p.ph}}`, i, word.length === 1);
      if (refused) return refused;
    }
    if (word.length === 1) continue;
    for (const p of phs) {
      if (OWN.has(p.ph) || !Object.hasOwn(values, p.ph)) continue;
      const problem = inertProblem(`{${p.ph}}`, values[p.ph]!, `argument ${i} of the agent command (${program})`);
      if (problem) return problem;
    }
  }
  return null;
}
