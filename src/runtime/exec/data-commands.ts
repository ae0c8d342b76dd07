// Commands whose arguments are DATA in every POSIX-family shell: none evaluates an argument as
// code, as a variable name or as arithmetic (bash, ksh, mksh and zsh evaluate array subscripts, and
// the `$(…)` inside them, in such contexts even when the text is quoted). An argument of anything
// else receives only inert values; the commands below that take code or names are refused outright.

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
