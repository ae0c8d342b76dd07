// Which argument of a command is a shell script, and where System 1 (`${VAR}`) and System 2
// (`{param}`) placeholders sit in it. Shared by the build-time warning and the run-time binding.
import { ENV_VAR_PATTERN } from "./expand-env.js";

// POSIX-family shells, whose quoting the binding relies on; csh/tcsh/fish parse differently.
const POSIX_SHELL = /^(?:ba|da|z|k|mk|a|yash|posh)?sh$/;
const OTHER_SHELL = /^(?:tc|c|fi|rc|es|nu|x)sh$/;
const COMMAND_FLAG = /^-[a-zA-Z]*c[a-zA-Z]*$/;
const PARAM_PLACEHOLDER = /\{([^}]+)\}/g;

/** A placeholder in a script: `[start, end)` of the template and what it names. */
export interface ScriptPlaceholder {
  start: number;
  end: number;
  system: "env" | "param";
  /** `VAR` or `VAR:-default` for System 1; the parameter name for System 2. */
  expr: string;
}

const base = (command: string) => command.slice(command.lastIndexOf("/") + 1);

/**
 * The index in `args` of the script a shell runs with `-c` (also `-lc`, `-ec`, …), or -1 when
 * `command` is no shell or runs no `-c` script. `posix` is false for csh-style shells and fish.
 */
export function findShellScript(command: unknown, args: readonly unknown[]): { index: number; posix: boolean } {
  if (typeof command !== "string") return { index: -1, posix: true };
  const name = base(command);
  const posix = POSIX_SHELL.test(name);
  if (!posix && !OTHER_SHELL.test(name)) return { index: -1, posix };
  const flag = args.findIndex((a) => typeof a === "string" && COMMAND_FLAG.test(a));
  if (flag < 0) return { index: -1, posix };
  // `sh -c [-e] [-o opt] script`: options may follow -c before the script.
  let i = flag + 1;
  while (i < args.length && typeof args[i] === "string" && /^[-+]/.test(args[i] as string)) i += /^[-+]o$/.test(args[i] as string) ? 2 : 1;
  return { index: i < args.length ? i : -1, posix };
}

/** The shell's own name, the `$0` a `-c` script gets when none is given. */
export const shellName = (command: string) => base(command);

/**
 * The placeholders of a script in the order the original substitutes them: System 1 over the whole
 * text, then System 2 between the System 1 matches (non-overlapping, left to right, as `re.sub`).
 * `known` says whether a System 2 name resolves; unknown names stay literal text of the script.
 */
export function scriptPlaceholders(script: string, known: (name: string) => boolean): ScriptPlaceholder[] {
  const found: ScriptPlaceholder[] = [];
  let last = 0;
  const params = (from: number, to: number) => {
    const gap = script.slice(from, to);
    for (const m of gap.matchAll(PARAM_PLACEHOLDER)) {
      if (known(m[1]!)) found.push({ start: from + m.index, end: from + m.index + m[0].length, system: "param", expr: m[1]! });
    }
  };
  for (const m of script.matchAll(ENV_VAR_PATTERN)) {
    params(last, m.index);
    found.push({ start: m.index, end: m.index + m[0].length, system: "env", expr: m[1]! });
    last = m.index + m[0].length;
  }
  params(last, script.length);
  return found;
}
