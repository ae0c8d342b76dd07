// A shell script that carries a caller's value runs no program text the build did not see. Binding a
// value as data keeps it out of the script's own parse, but the script can still turn it into code
// through the file system or a pipe: `echo {x} > s.sh; sh s.sh`, `cp /dev/stdin x; ./x`,
// `… > m.py; python3 m.py`, `… | tar x; . a.sh`. The rule is stated on the reader of program text,
// not on the writer, so every way of writing the file (a redirection, tee, cp, dd, tar, curl, a
// program rye has never heard of) is covered at once. Each simple command of the script is judged
// here; shell-context.ts applies the verdict to the whole script.
import { DATA_COMMANDS } from "./data-commands.js";
import { isInterpreter, programPlace } from "./interpreters.js";
import { LAUNCHERS, type Launch } from "./launchers.js";
import { parseShellOptions, shellFamily } from "./shell-options.js";

/** A word of a simple command: its literal text (null when it holds an expansion or a placeholder). */
export interface CommandWord {
  text: string | null;
  /**
   * The word holds a `$…` expansion or a command substitution: text known only at run time. A word
   * that is not literal only through placeholders is judged by the placeholders' own roles.
   */
  expands: boolean;
  /** The word is exactly the placeholder bound to the tool's own file (`{tool_path}`), as the chain wrote it. */
  tool: boolean;
}

/** What one simple command does with program text. */
export interface Verdict {
  /** Why the command runs program text the build did not see, or null. */
  unseen: string | null;
  /** A literal `-c` script of a nested shell, to be read with the same rule. */
  nested: string | null;
  /** The command runs the tool's own file (the `{tool_path}` exception). */
  runsTool: boolean;
  /** The command only reads and prints: it writes no file named by its arguments. */
  readOnly: boolean;
}

/**
 * Data commands that write no file their arguments name. With any other command in the script, the
 * tool's own file could be rewritten before it runs, so the `{tool_path}` exception no longer holds.
 */
// `read`, `test`, `[`, `cd` and `pwd` are builtins that set a variable, a status or the working folder, never a file.
const READ_ONLY = new Set(["echo", "printf", "cat", "ls", "head", "tail", "wc", "cut", "basename", "dirname", "realpath", "readlink", "stat", "du", "true", "false", "read", "test", "[", "cd", "pwd"]);
/** Builtins whose arguments are shell code run later: non-literal text there is code the build never saw. */
const EVALUATORS = new Set(["eval", "trap"]);

const base = (word: string) => word.slice(word.lastIndexOf("/") + 1);
const NONE: Verdict = { unseen: null, nested: null, runsTool: false, readOnly: false };
const unseen = (why: string): Verdict => ({ ...NONE, unseen: why });

/**
 * Judges one simple command (`words`, with `launch` from the launcher walk over their texts);
 * `assigned` says environment assignments stand before it (`BASH_ENV=f sh -c …`).
 */
export function judgeCommand(words: readonly CommandWord[], launch: Launch, assigned = false): Verdict {
  const shown = words.map((w) => w.text ?? "…").join(" ");
  const said = `\`${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}\``;
  if (words[0]?.tool === true) return { ...NONE, runsTool: true };
  // `exec >log`, a bare `env`: a launcher without a command starts no program.
  if (launch.reason?.endsWith(" runs no command") === true) return NONE;
  if (launch.program < 0 || (!launch.proven && launch.family === null)) {
    return unseen(`${said}, a command rye cannot follow (${launch.reason ?? "no program"}), may run any program`);
  }
  const program = words[launch.program]!.text!;
  if (program.includes("/")) return unseen(`${said} names its program by a path, which the script may have written`);
  const name = launch.name;
  if (name === "." || name === "source" || (name === "builtin" && (words[launch.program + 1]?.text === "." || words[launch.program + 1]?.text === "source"))) {
    return unseen(`${said} reads a file as shell code`);
  }
  const args = words.slice(launch.program + 1);
  // A word that only placeholders keep from being literal is read as one operand (a value placed
  // there cannot be an option: its own role refuses that), the tool's own path among them.
  const texts = args.map((w) => w.text ?? (w.expands ? null : "…"));
  if (launch.family !== null) {
    if (typeof parseShellOptions(texts) === "string") return unseen(`${said} runs a shell with options rye does not read`);
    // A shell reads startup files before its script: always for zsh (.zshenv), for a login shell
    // (.profile), and wherever the environment names one (BASH_ENV, ENV, ZDOTDIR, HOME).
    if (launch.family === "zsh") return unseen(`${said} runs zsh, which first reads startup files such as ~/.zshenv`);
    // The shell's own options: the words before its script (`-c`) or its first operand.
    const end = launch.script >= 0 ? launch.script - launch.program - 1 : texts.findIndex((t) => t === null || !/^[-+]/.test(t));
    const options = texts.slice(0, end < 0 ? texts.length : end);
    if (options.some((t) => t === "--login" || /^-[A-Za-z]*l/.test(t!))) return unseen(`${said} runs a login shell, which first reads startup files such as ~/.profile`);
    if (assigned || words.slice(0, launch.program).some((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text!))) {
      return unseen(`${said} runs a shell with environment assignments, which can name startup files it reads first`);
    }
    if (launch.script >= 0) {
      const script = words[launch.script]!;
      if (script.expands) return unseen(`${said} runs a shell whose -c script is built at run time`);
      return { ...NONE, nested: script.text };
    }
    if (args[0]?.tool === true) return { ...NONE, runsTool: true };
    return unseen(`${said} runs a shell that reads its program from a file or stdin`);
  }
  if (isInterpreter(name)) return interpreter(said, name, args, texts);
  if (EVALUATORS.has(name) && args.some((w) => w.expands)) return unseen(`${said} evaluates text built at run time`);
  if (!Object.hasOwn(LAUNCHERS, name) && !DATA_COMMANDS.has(name)) {
    const inner = texts.find((t) => t !== null && (shellFamily(base(t), false) !== null || isInterpreter(base(t)) || base(t) === "busybox"));
    if (inner !== undefined) return unseen(`${said}: ${name} is no launcher rye knows, and it may run ${inner}`);
  }
  return { ...NONE, readOnly: READ_ONLY.has(name) };
}

function interpreter(said: string, name: string, args: readonly CommandWord[], texts: readonly (string | null)[]): Verdict {
  const place = programPlace(name, texts);
  const program = args[place.index];
  if (place.source === "inline" && !place.module && program !== undefined && !program.expands) return NONE;
  if (place.source === "file" && args[place.index]?.tool === true) return { ...NONE, runsTool: true };
  if (place.module) return unseen(`${said} runs a module that is looked up at run time`);
  if (place.source === "inline") return unseen(`${said} runs ${name} with program text built at run time`);
  if (place.source === "file") return unseen(`${said} runs ${name} with its program in a file`);
  if (place.source === "unknown") return unseen(`${said} runs ${name} with options rye cannot read`);
  return unseen(`${said} runs ${name}, which reads its program from stdin`);
}
