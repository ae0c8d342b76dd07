// The POSIX-family shells rye binds values into, and the invocation options it understands. Both are
// allowlists: an option outside them (`-i`, `-k`, `-o keyword`, `-O expand_aliases`, `--rcfile`…)
// could change how the script is read, so the script is then "not proven".

/** An argv word as written: a literal, or null for anything holding a placeholder or expansion. */
export type Word = string | null;

/** A shell dialect: which builtins behave how (see data-commands.ts). */
export type ShellFamily = "sh" | "bash" | "dash" | "ash" | "ksh" | "mksh" | "zsh" | "yash" | "posh" | "busybox";

const FAMILIES: Readonly<Record<string, ShellFamily>> = {
  sh: "sh",
  bash: "bash",
  rbash: "bash",
  dash: "dash",
  ash: "ash",
  ksh: "ksh",
  ksh93: "ksh",
  mksh: "mksh",
  lksh: "mksh",
  zsh: "zsh",
  yash: "yash",
  posh: "posh",
};

/** The family of a shell named `name` (`busybox sh`/`busybox ash` when `applet`), or null. */
export function shellFamily(name: string, applet: boolean): ShellFamily | null {
  if (applet) return name === "sh" || name === "ash" ? "busybox" : null;
  return Object.hasOwn(FAMILIES, name) ? FAMILIES[name]! : null;
}

// Single-letter options that only change error handling, tracing or globbing, never parsing.
const FLAGS = "abefhlmnprtuvxBCEPT";
/** `-o NAME` / `+o NAME`. */
const SET_OPTIONS = new Set(["errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber", "posix", "noexec", "errtrace", "functrace", "allexport", "physical", "hashall", "notify", "monitor"]);
/** bash `-O NAME` / `+O NAME` (shopt). */
const SHOPT = new Set(["nullglob", "failglob", "dotglob", "globstar", "nocaseglob", "nocasematch", "lastpipe", "inherit_errexit", "xpg_echo", "checkwinsize"]);
const LONG = new Set(["--norc", "--noprofile", "--posix", "--login", "--noediting", "--restricted"]);

/**
 * Reads a shell's options (`args` after the shell's name). Returns the index in `args` of the `-c`
 * script, -1 when no `-c` was given (the shell runs a file or stdin), or why the options are not proven.
 */
export function parseShellOptions(args: readonly Word[]): number | string {
  let command = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === null || a === undefined) return command ? i : "a placeholder among the shell's options";
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    if (a.startsWith("--")) {
      if (!LONG.has(a)) return `unknown shell option ${a}`;
      continue;
    }
    if (!/^[-+]./.test(a)) break;
    const takes: string[] = [];
    for (const c of a.slice(1)) {
      if (c === "c" && a[0] === "-") command = true;
      else if (c === "o" || c === "O") takes.push(c);
      else if (!FLAGS.includes(c)) return `unknown shell option ${a[0]}${c}`;
    }
    for (const c of takes) {
      const name = args[++i];
      if (typeof name !== "string" || !(c === "o" ? SET_OPTIONS : SHOPT).has(name)) return `shell option ${a[0]}${c} ${name ?? ""} is not on rye's list`;
    }
  }
  if (!command) return -1;
  return i < args.length ? i : "-c without a script";
}

// The shells' real invocation grammar, to find the script even where rye does not read it: `-o` and
// `-O` (and `+o`/`+O`) take the next word; these letters and long options take none, or one word.
const OTHER_FLAGS = "iksD";
const LONG_WITH_WORD = new Set(["--rcfile", "--init-file"]);

/** Where a shell's arguments put its program text. Indices are into the `args` given. */
export interface ShellOperands {
  /** Index of the `-c` script, -1 when there is no `-c` (or `-c` has no script). */
  script: number;
  /** Whether the shell reads its script from stdin (no `-c` and no script file, `-s`, or `-`). */
  stdin: boolean;
}

/**
 * Locates the program text of a shell with the shells' own option grammar (the `-c` script is the
 * first operand after the options), whether or not rye reads the options: null when an option
 * outside that grammar, or a placeholder among the options, leaves the script's position unknown.
 */
export function locateShellOperands(args: readonly Word[]): ShellOperands | null {
  let command = false;
  let stdin = false;
  let sawS = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === null || a === undefined) {
      if (command) break;
      return null;
    }
    if (a === "--" || a === "-") {
      stdin ||= a === "-";
      i++;
      break;
    }
    if (a.startsWith("--")) {
      // The word after --rcfile is a file the shell runs (bash even with -c; busybox as its script): it must be literal.
      if (LONG_WITH_WORD.has(a)) {
        if (typeof args[++i] !== "string") return null;
      } else if (!LONG.has(a)) return null;
      continue;
    }
    if (!/^[-+]./.test(a)) break;
    const letters = a.slice(1);
    for (let k = 0; k < letters.length; k++) {
      const c = letters[k]!;
      if (c === "o" || c === "O") {
        // zsh, mksh, ksh93 and yash read `-oNAME` as one option, bash reads `-o` and takes the next
        // word: with letters after it, the shells disagree on which words follow, so it is unknown.
        if (k < letters.length - 1) return null;
        if (typeof args[++i] !== "string") return null;
      } else if (c === "c" && a[0] === "-") command = true;
      // bash and busybox read +s as -s; dash runs stdin after a -c script when -s is also given.
      else if (c === "s") sawS = true;
      else if (!FLAGS.includes(c) && !OTHER_FLAGS.includes(c)) return null;
    }
  }
  const operand = i < args.length ? i : -1;
  if (command) return { script: operand, stdin: sawS };
  return { script: -1, stdin: stdin || sawS || operand < 0 };
}
