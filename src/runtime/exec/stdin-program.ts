// What a program does with its stdin, which carries `input_data` and the output of a pipeline's
// earlier commands. The rule is an allowlist: stdin takes any value only where the program reading
// it is proven to read it as data: a program on the data-command list, or a shell or interpreter
// that was given its program elsewhere (a `-c`/`-e` program, a module or a script file). A shell or
// interpreter that reads its program from stdin (`sh`, `bash -s`, `python3 -`, `perl`) makes stdin
// code: refused. `xargs` builds a command from stdin: refused. Anything else (a program rye does not know, sqlite3, ssh) takes inert values only.
import { DATA_COMMANDS } from "./data-commands.js";
import { isInterpreter, programSource } from "./interpreters.js";
import { walkLaunchers } from "./launchers.js";
import { locateShellOperands, type Word } from "./shell-options.js";
import type { Role } from "./shell-lexer.js";

/** The role stdin gives a value, and why when it is not `full`. */
export interface StdinRole {
  role: Role;
  reason: string;
}

/**
 * The role of the stdin of `argv` (argv[0] is the command; null for a word that is not literal), from
 * the program alone: what a shell's `-c` script does with stdin is stdin-readers.ts's to judge.
 */
export function programStdinRole(argv: readonly Word[]): StdinRole {
  const launch = walkLaunchers(argv);
  if (launch.program < 0) return { role: "refuse", reason: `stdin of a command rye cannot follow (${launch.reason ?? "a program inside env -S"})` };
  // xargs turns its stdin into the argv of the command it runs: words, options among them, and the
  // command itself when the one it names is a launcher (`xargs nice`, `xargs env`). Even an inert
  // word there names a program, and a file fed to it holds text no check of a value bounds.
  if (argv.slice(0, launch.program + 1).some((w) => w !== null && w.slice(w.lastIndexOf("/") + 1) === "xargs")) {
    return { role: "refuse", reason: "stdin of xargs, which makes it the arguments, options or program of the command it runs" };
  }
  const name = launch.name;
  const args = argv.slice(launch.program + 1);
  if (launch.family) {
    const where = locateShellOperands(args);
    if (where === null) return { role: "refuse", reason: `stdin of ${name}, whose options leave unknown where it reads its script` };
    if (where.stdin) return { role: "refuse", reason: `stdin of ${name}, which reads its script from stdin` };
    return { role: "full", reason: "" };
  }
  if (isInterpreter(name)) {
    const source = programSource(name, args);
    if (source === "inline" || source === "file") return { role: "full", reason: "" };
    const why = source === "stdin" ? "which reads its program from stdin" : "whose options rye cannot read";
    return { role: "refuse", reason: `stdin of ${name}, ${why}` };
  }
  if (launch.proven && DATA_COMMANDS.has(name)) return { role: "full", reason: "" };
  return { role: "inert", reason: `stdin of ${name}, which is not one of rye's data commands` };
}
