// The operand grammars rye knows: for a program on this table, which argv positions it reads as
// data and which words end its options. A whole caller value is an arbitrary string only at a
// position this table proves to be data; every program that is not on it is unproven (inert values
// only), and the programs that run their arguments as commands are refused outright. sudo, doas
// and busybox are launchers (launchers.ts): walked with their option grammar to the program they run.
import { DATA_COMMANDS, OPTIONS_WITH_ARGUMENT } from "./data-commands.js";

/** How a known program reads its operands. */
export interface OperandGrammar {
  /** Literal words after which the program reads no more options (`--`; git's `--end-of-options`). */
  ends: readonly string[];
  /** It reads words starting with `+` as options too (obsolete `tail +5`, `sort +1`). */
  plus: boolean;
  /**
   * Short options that take an argument, when the table is complete for the program: any other
   * short cluster is flags only. Null when rye does not know them all.
   */
  withArg: string | null;
  /** Its first operand ends its options (printf's format, echo's first word); no option permuting. */
  firstOperandEnds: boolean;
}

/**
 * Programs that run an argument (or the rest of their argv) as a command or as code, directly or
 * through a shell: a caller's whole value anywhere in their argv is refused, inert or not.
 */
export const COMMAND_RUNNERS: ReadonlySet<string> = new Set([
  "flock", "script", "su", "runuser", "pkexec", "watch", "ssh", "rsh", "rlogin", "slogin", "mosh", "autossh",
  "gdb", "lldb", "xterm", "uxterm", "gnome-terminal", "konsole", "tmux", "screen", "at", "batch", "systemd-run", "nsenter",
  "chroot", "unshare", "setpriv", "firejail", "bwrap", "parallel", "entr", "expect", "strace", "ltrace", "valgrind", "perf",
  "xdg-open", "open", "start-stop-daemon", "daemonize", "runcon", "sg", "newgrp", "machinectl", "docker", "podman", "kubectl",
  "make", "cmake", "npx", "npm", "yarn", "pnpm", "vim", "vi", "nvim", "emacs", "less", "more", "man", "tclsh", "wish", "lua",
  "php", "Rscript", "osascript", "cron", "crontab",
]);

/**
 * git's subcommands whose operands are revisions, paths, remotes or messages. Any other (`config`,
 * `bisect run`, `submodule foreach`, an alias) can run a command, so git is refused there.
 */
export const GIT_DATA_SUBCOMMANDS: ReadonlySet<string> = new Set([
  "log", "show", "diff", "status", "rev-parse", "rev-list", "ls-files", "ls-tree", "blame", "cat-file", "grep", "shortlog",
  "describe", "add", "rm", "mv", "commit", "checkout", "switch", "restore", "clone", "fetch", "pull", "push", "init", "branch", "tag",
]);

/** Global git options that take the next word. */
export const GIT_GLOBAL_WITH_ARG: ReadonlySet<string> = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"]);

const PLUS_READERS = new Set(["tail", "sort"]);

/** The grammar of a known data program, or null when rye does not know how it reads its operands. */
export function operandGrammar(name: string): OperandGrammar | null {
  if (DATA_COMMANDS.has(name)) {
    return {
      ends: name === "echo" ? [] : ["--"],
      plus: PLUS_READERS.has(name),
      withArg: Object.hasOwn(OPTIONS_WITH_ARGUMENT, name) ? OPTIONS_WITH_ARGUMENT[name]! : null,
      firstOperandEnds: name === "printf" || name === "echo",
    };
  }
  if (name === "git") return { ends: ["--", "--end-of-options"], plus: false, withArg: null, firstOperandEnds: false };
  return null;
}

/**
 * Options whose attached argument (`-t{v}`, `--key={v}`) is data: a separator, a key or field list,
 * a count, a size, a date, a log format. An option word a value is spliced into is that option's
 * argument, so it is accepted (inert) only for an option listed here; every other option may take a
 * program (`sort --compress-program=`, `tar -I`, `rsync -e`), code (`sed -e`), a file of code or
 * hooks (`git clone --template=`), and refuses a caller's or the environment's value.
 */
export const DATA_OPTION_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  sort: ["-t", "-k", "-S", "--field-separator", "--key", "--buffer-size", "--parallel"],
  cut: ["-d", "-f", "-b", "-c", "--delimiter", "--fields", "--bytes", "--characters", "--output-delimiter"],
  head: ["-n", "-c", "--lines", "--bytes"],
  tail: ["-n", "-c", "--lines", "--bytes"],
  uniq: ["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"],
  git: ["--format", "--pretty", "--author", "--committer", "--since", "--until", "--after", "--before", "--max-count", "-n", "--abbrev", "--date"],
};

/** Whether `option` (`-t`, `--key`) of `program` takes data as its attached argument. */
export const takesDataArgument = (program: string, option: string): boolean =>
  Object.hasOwn(DATA_OPTION_ARGUMENTS, program) && DATA_OPTION_ARGUMENTS[program]!.includes(option);
