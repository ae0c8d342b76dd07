// Commands whose arguments are DATA in every POSIX-family shell: none evaluates an argument as
// code, as a variable name or as arithmetic (bash, ksh, mksh and zsh evaluate array subscripts, and
// the `$(…)` inside them, in such contexts even when the text is quoted). An argument of anything
// else receives only inert values; the commands below that take code or names are refused outright.

import { readDataOptions } from "./data-options.js";

/** Data commands: every argument may hold any value (a leading `-` only after `--`). */
export const DATA_COMMANDS: ReadonlySet<string> = new Set([
  "echo", "printf", "cat", "ls", "mkdir", "touch", "rm", "rmdir", "cp", "mv", "ln", "head", "tail", "wc", "sort", "uniq",
  "cut", "basename", "dirname", "realpath", "readlink", "tee", "stat", "du", "true", "false",
]);

/**
 * The short options of each data command that take an argument (GNU coreutils). A `--` right after
 * one of them is that option's argument (`sort -T --`), not the end of the options.
 */
export const OPTIONS_WITH_ARGUMENT: Readonly<Record<string, string>> = {
  sort: "kotTSy", cut: "bcdf", head: "nc", tail: "ncs", cp: "StT", mv: "StT", ln: "StT", ls: "IwT", du: "BdtX", stat: "c",
  touch: "drt", mkdir: "m", uniq: "fsw", basename: "s", tee: "", wc: "", rm: "", rmdir: "", cat: "", realpath: "", readlink: "",
  dirname: "", true: "", false: "",
};

/**
 * Whether a literal `--` after `previous` (the word before it) ends `command`'s options: it does
 * unless `previous` is an option whose argument it would be. A long option without `=`, or a command
 * without a table entry, may take one, so the `--` after it ends nothing.
 */
export function endsOptions(command: string, previous: string | null): boolean {
  if (previous === null || !previous.startsWith("-") || previous === "-") return true;
  if (previous.startsWith("--")) return previous.includes("=");
  const withArg = Object.hasOwn(OPTIONS_WITH_ARGUMENT, command) ? OPTIONS_WITH_ARGUMENT[command]! : null;
  if (withArg === null) return false;
  const at = [...previous.slice(1)].findIndex((c) => withArg.includes(c));
  return at < 0 || at + 2 < previous.length;
}

/** `echo` has no `--`: a value starting with `-` at the start of a word is always refused. */
export const NO_END_OF_OPTIONS: ReadonlySet<string> = new Set(["echo"]);

/**
 * Commands that read an argument as code, a command, a variable name or arithmetic: a placeholder in
 * their arguments cannot be proven safe, so the build refuses it (as does a shell or a launcher that
 * runs a placeholder as its command).
 */
export const CODE_COMMANDS: ReadonlySet<string> = new Set([
  "eval", "exec", "command", "builtin", "source", ".", "trap", "alias", "unalias", "enable", "hash", "export", "declare", "typeset",
  "local", "readonly", "let", "read", "unset", "set", "shift", "getopts", "mapfile", "readarray", "fc", "integer", "float",
  "nameref", "print", "whence", "type", "functions", "autoload", "emulate", "zmodload", "vared", "noglob", "coproc", "select",
  "function", "case", "[[", "((", "wait", "kill", "ulimit", "umask", "exit", "return", "break", "continue",
]);

/** Commands whose mere presence in a script changes what other command names mean. */
export const REDEFINING_COMMANDS: ReadonlySet<string> = new Set(["alias", "unalias", "enable", "hash", "function", "emulate", "zmodload", "autoload", "setopt", "shopt", "disable"]);

// printf's format is data only when its conversions are all %s, %b, %c or %%: numeric conversions
// evaluate their argument as arithmetic in ksh93, mksh and zsh, and `*` takes a width that way.
const STRING_FORMAT = /^(?:[^%]|%%|%[-+ #0]*\d*(?:\.\d*)?[sbc])*$/;

/** Whether a literal printf format reads its arguments as strings only. */
export const stringFormat = (format: string): boolean => STRING_FORMAT.test(format);

// A value never reaches a file: what later reads a file (a name looked up in PATH, xargs, an
// interpreter under a name rye does not know) is not proven. So each data command says which of its
// arguments name a file it writes data into. The table is an allowlist of commands that write none;
// a data command outside it, and a writer's output operand or option, make the command a writer.
/** Data commands that write no data into a file: their output is stdout (mkdir, touch, rm make or remove names only). */
const WRITES_NO_DATA: ReadonlySet<string> = new Set([
  "echo", "printf", "cat", "ls", "head", "tail", "wc", "cut", "basename", "dirname", "realpath", "readlink", "stat", "du", "true",
  "false", "mkdir", "touch", "rm", "rmdir",
]);

/** A word of a command as the writer table reads it: literal text, or null when known only at run time. */
type ArgText = string | null;

/**
 * Why data command `command` with arguments `args` writes data into a file named by an argument or
 * an option, or runs a program, or null when it does neither. An option outside the command's
 * allowlist (data-options.ts) makes it unproven; `cp`, `mv` and `ln` always write (their last operand
 * is a file made from the others); `tee` into each operand, `uniq` into its second.
 */
export function fileWriteOf(command: string, args: readonly ArgText[]): string | null {
  const said = `${command} ${args.map((a) => a ?? "…").join(" ")}`.trim().slice(0, 60);
  const { operands, unproven } = readDataOptions(command, args);
  if (unproven !== null) return `\`${said}\` has an option rye does not list for ${command} (${unproven.slice(0, 30)}), which may run a program or write a file`;
  if (WRITES_NO_DATA.has(command) || command === "sort") return null;
  if (command === "tee") return operands.some((a) => a !== "/dev/null") ? `\`${said}\` writes its input into a file` : null;
  if (command === "uniq") return operands.length >= 2 ? `\`${said}\` writes into its second operand` : null;
  return `\`${said}\` writes into a file its arguments name`;
}

/** Descriptor duplications that reach no file: the inherited stdin, stdout and stderr, and a close. */
const STANDARD_DUPS: Readonly<Record<string, ReadonlySet<string>>> = { ">&": new Set(["1", "2", "-"]), "<&": new Set(["0", "-"]) };

/**
 * Why a redirection `op` with target `target` (literal text, or null when built at run time) sends
 * output into a file, or null when it sends none: an input redirection, a duplication of stdin,
 * stdout or stderr (`2>&1`, `>&2`, `<&0`), a close (`>&-`) and /dev/null write no file. Any other
 * descriptor (`>&3`, `1<&3`) may have been opened onto a file by a command rye does not read as
 * `exec` (`eval 'exec 3>F'`, `builtin exec`, ksh93's `redirect`, bash's `{fd}>F`), so it is one.
 */
export function redirectWriteOf(op: string, target: ArgText): string | null {
  if (op === "<" || op === "<<<") return null;
  if (Object.hasOwn(STANDARD_DUPS, op) && target !== null && STANDARD_DUPS[op]!.has(target)) return null;
  if (target === "/dev/null") return null;
  return `\`${op} ${target ?? "…"}\` sends output into a file`;
}
