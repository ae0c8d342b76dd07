// Which argument of a command is a shell script, and where System 1 (`${VAR}`) and System 2
// (`{param}`) placeholders sit in it. Shared by the build-time warning and the run-time binding.
import { ENV_VAR_PATTERN } from "./expand-env.js";
import { walkLaunchers, type Word } from "./launchers.js";

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
 * The index in `args` of the `-c` script that `command args…` runs in a POSIX-family shell, through
 * any chain of known launchers (`env`, `timeout`, `nice`, `sudo`, `busybox`…), or -1 when the argv
 * runs no such script or rye cannot prove it does (an unknown launcher option or shell option).
 */
export function findShellScript(command: unknown, args: readonly unknown[]): { index: number; shell: string } {
  const words: Word[] = [command, ...args].map((w) => (typeof w === "string" ? w : null));
  const launch = walkLaunchers(words);
  if (!launch.proven || !launch.family || launch.script < 1) return { index: -1, shell: launch.name };
  return { index: launch.script - 1, shell: launch.name };
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
