// Which argv elements a launch may read as code, or as its own options, so that a caller's value
// there is refused even as a whole argument. A whole-argument placeholder is data only where the walk
// proves what receives it: a proven program's ordinary argument. Where the proof stops, "not proven"
// means refused:
//   - a launcher rye cannot follow (an unknown option, a value in its option, `NAME=value` or command
//     position, a program inside `env -S`): every caller value in the argv is refused;
//   - a shell whose options rye does not read (`bash -c -O extglob`): its `-c` script is located with
//     the shells' own grammar and refused as a script; when even that grammar cannot place it, every
//     whole value after the shell is;
//   - a program outside the launcher table with a shell or interpreter among its literal arguments
//     (`flock L sh -c`, `script -qc`): an unproven launcher, every whole value after it is refused;
//   - a shell whose literal `-c` script runs program text the build did not see (`sh -c 'echo "$1" >
//     s.sh; sh s.sh' sh {x}`): every caller value after the script is refused, whole or spliced,
//     since even an inert word is a command once the script writes it into a file and runs it.
import { isInterpreter } from "./interpreters.js";
import { LAUNCHERS, walkLaunchers } from "./launchers.js";
import { locateShellOperands, shellFamily, type Word } from "./shell-options.js";
import { DATA_COMMANDS } from "./data-commands.js";
import { unseenProgramIn } from "./shell-context.js";

/** Where caller values are refused in an argv (indices into it; argv[0] is the command). */
export interface LaunchCode {
  /** From this index on, a whole caller value is refused (argv.length when nowhere). */
  from: number;
  /** A shell's `-c` script that rye located but does not read, or -1. */
  script: number;
  /** Every caller value in the argv is refused, spliced or whole. */
  all: boolean;
  /** Spliced caller values from `from` on are refused too, not only whole ones. */
  spliced: boolean;
  /** Why, for messages. */
  reason: string;
}

const base = (word: string) => word.slice(word.lastIndexOf("/") + 1);

/** Where `argv` (null for a word holding a caller's or the environment's value) may read a value as code. */
export function launchCode(argv: readonly Word[]): LaunchCode {
  const launch = walkLaunchers(argv);
  const none: LaunchCode = { from: argv.length, script: -1, all: false, spliced: false, reason: "" };
  // A command that is itself a value (`${RYE_PYTHON}`) is checked where that value is resolved.
  if (argv[0] === null || argv[0] === undefined) return none;
  if (launch.program < 0 && !launch.proven) return { ...none, from: 1, all: true, reason: `rye cannot follow this launch (${launch.reason ?? "no program"})` };
  if (launch.family) {
    const script = launch.proven && launch.script >= 0 ? argv[launch.script] : null;
    const unseen = typeof script === "string" ? unseenProgramIn(script) : null;
    if (unseen !== null) return { ...none, from: launch.script + 1, spliced: true, reason: `its -c script runs program text the build never sees: ${unseen}` };
    if (launch.proven || launch.program < 0) return none;
    const where = locateShellOperands(argv.slice(launch.program + 1));
    const reason = `${launch.name} runs with options rye does not read (${launch.reason ?? ""})`;
    if (where === null) return { ...none, from: launch.program + 1, reason };
    return { ...none, script: where.script < 0 ? -1 : launch.program + 1 + where.script, reason };
  }
  if (launch.program < 0 || Object.hasOwn(LAUNCHERS, launch.name) || DATA_COMMANDS.has(launch.name)) return none;
  const inner = argv.slice(launch.program + 1).find((w) => w !== null && (shellFamily(base(w), false) !== null || isInterpreter(base(w)) || base(w) === "busybox"));
  if (inner === undefined) return none;
  return { ...none, from: launch.program + 1, reason: `${launch.name} is no launcher rye knows, and it may run ${inner} with the arguments after it` };
}

/**
 * Why a caller's placeholder in argv element `index` is refused, or null. `whole` says the
 * placeholder is that entire element.
 */
export function launchCodeProblem(code: LaunchCode, placeholder: string, index: number, whole: boolean): string | null {
  const refused = code.all || index === code.script || ((whole || code.spliced) && index >= code.from);
  if (!refused) return null;
  if (code.spliced) {
    return `placeholder '${placeholder}' is an argument of a shell script that carries it into a program the build never sees (${code.reason}); refused. Put the program in the script itself or in the tool, and run it there`;
  }
  const what = index === code.script ? `is the -c script of a shell whose options rye does not read (${code.reason})` : `stands where the program could read it as code or as an option (${code.reason})`;
  return `placeholder '${placeholder}' ${what}, so rye cannot prove its value is data; refused. Run the program directly with the value as its own argument (args: [..., "${placeholder}"]) and no launcher or shell option rye does not know`;
}
