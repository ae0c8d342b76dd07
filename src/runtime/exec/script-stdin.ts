// The stdin of a shell's `-c` script is the stdin of every command in it that no pipe and no input
// redirection feeds: inside groups, loops, `$(…)`, nested shells and after `exec`. So the stdin rule
// (stdin-program.ts) is applied to each of those commands, and input_data gets the weakest role.
// The scan reads the raw text (quoted parts included, so a nested shell's script counts too).
import { DATA_COMMANDS, fileWriteOf, redirectWriteOf } from "./data-commands.js";
import { walkLaunchers } from "./launchers.js";
import type { Word } from "./shell-options.js";
import { programStdinRole, type StdinRole } from "./stdin-program.js";

const rank = { refuse: 0, inert: 1, full: 2 } as const;
const CUT = /(\|\||&&|\|&|[;&|\n()`]|\$\()/;
const RESERVED = new Set(["if", "then", "elif", "else", "fi", "while", "until", "do", "done", "!", "time", "{", "}"]);
// The head of a loop or a case: its words are a name and a list, not a command.
const HEADS = new Set(["for", "select", "case", "esac"]);
// Builtins that never read stdin, and those that read it as data (a line into a variable).
const NO_STDIN = new Set([":", "cd", "pwd", "let", "declare", "typeset", "integer", "float", "nameref", "echo", "printf", "print", "break", "continue", "ulimit", "getopts", "test", "[", "[[", "]]", "export", "set", "unset", "exit", "return", "shift", "sleep", "wait", "umask", "local", "readonly", "true", "false"]);
const READS_DATA = new Set(["read", "mapfile", "readarray"]);

const unquote = (w: string) => w.replace(/["'\\]/g, "");

/** The weakest stdin role among the commands of `script` that inherit the script's stdin. */
export function scriptStdinRole(script: string): StdinRole {
  let role: StdinRole = { role: "full", reason: "" };
  let previous = "";
  let read = false;
  // The `$(`, backquotes and `(` that enclose the current part.
  const opens: string[] = [];
  // Arithmetic (`$(( ))`, `(( ))`) runs no command: its text is not a command's words.
  // A duplicated descriptor (`2>&1`, `>&-`) reads and writes no file; its `&` would cut the command.
  const text = script.replace(/\$?\(\([^()]*\)\)/g, " ").replace(/\d*[<>]&(?:\d+|-)(?![^\s;&|()`<>])/g, " ");
  for (const part of text.split(CUT)) {
    if (CUT.test(part) && new RegExp(`^(?:${CUT.source})$`).test(part)) {
      previous = part;
      if (part === ")") opens.pop();
      else if (part === "`" && opens.at(-1) === "`") opens.pop();
      else if (part === "$(" || part === "(" || part === "`") opens.push(part);
      continue;
    }
    const fed = previous === "|" || previous === "|&";
    const words = part.split(/\s+/).filter((w) => w.length > 0);
    // Once a command has read the stdin, any pipe may carry its text on: a writer after one takes it into a file.
    const piped = fed && read ? (outputWrite(words) ?? writerOf(commandWords(words))) : null;
    if (piped !== null) return intoFile(piped);
    // A part that ends `]]` is the rest of a `[[ … && … ]]` test, which reads no stdin.
    if (fed || words.at(-1) === "]]" || words.some((w) => /^0?<(?!&)/.test(w)) || HEADS.has(unquote(words.find((w) => !RESERVED.has(unquote(w))) ?? ""))) continue;
    const argv = commandWords(words);
    // A compound command's redirection (`done > f`, `} > f`) sends what its commands read from
    // stdin into a file, as `exec > f` does for the rest of the script.
    const compound = argv.length === 0 ? outputWrite(words) : null;
    if (compound !== null) return intoFile(compound);
    // The rest of a quoted word after a `$(…)` closes (`"$(…)"`) is no command.
    if (argv.length === 0 || argv[0] === "") continue;
    const name = argv[0] === null ? null : argv[0]!.slice(argv[0]!.lastIndexOf("/") + 1);
    if (name !== null && NO_STDIN.has(name)) continue;
    read = true;
    if (name !== null && READS_DATA.has(name)) continue;
    const written = outputWrite(words) ?? writerOf(argv);
    if (written !== null) return intoFile(written);
    // Inside `$(…)` the output of a stdin reader is the stdin's text made into words the script
    // uses anywhere (`sed -e "$(cat)"`), with no check of the value on the way.
    if (opens.some((o) => o !== "(")) return { role: "refuse", reason: `stdin of ${name ?? "a command"} inside a command substitution, whose output (the stdin's text) the script uses as words no check of the value bounds, inside a -c script that hands it its own stdin` };
    const own = moduleRole(argv) ?? programStdinRole(argv);
    if (rank[own.role] < rank[role.role]) role = { role: own.role, reason: `${own.reason}, inside a -c script that hands it its own stdin` };
  }
  return role;
}

const intoFile = (why: string): StdinRole => ({ role: "refuse", reason: `stdin of a command whose output goes into a file (${why}), which a later command could run, inside a -c script that hands it its own stdin` });

/** Why the redirections among `words` send output into a file, or null (a target built at run time counts as one). */
function outputWrite(words: readonly string[]): string | null {
  for (let k = 0; k < words.length; k++) {
    const m = /^\d*(>>|>\||>&|<&|&>>|&>|<>|>)(.*)$/.exec(words[k]!);
    if (m === null) continue;
    const raw = m[2] !== "" ? m[2]! : (words[++k] ?? "");
    const why = redirectWriteOf(m[1]!, /[$`]/.test(raw) ? null : unquote(raw));
    if (why !== null) return why;
  }
  return null;
}

/** Why a data command among `argv` writes into a file its arguments name, or null. */
function writerOf(argv: readonly Word[]): string | null {
  const launch = walkLaunchers(argv);
  if (!launch.proven || launch.program < 0 || launch.family !== null || !DATA_COMMANDS.has(launch.name)) return null;
  return fileWriteOf(launch.name, argv.slice(launch.program + 1));
}

/**
 * The role of the stdin of one command of a script (argv[0] is the command; null for a word that
 * is not literal): the program's own rule, and for a shell with a literal `-c` script, the weakest
 * role among the commands of that script that inherit its stdin.
 */
export function commandStdinRole(argv: readonly Word[]): StdinRole {
  const own = moduleRole(argv) ?? programStdinRole(argv);
  const launch = walkLaunchers(argv);
  const script = launch.family !== null && launch.proven && launch.script >= 0 ? argv[launch.script] : null;
  if (typeof script !== "string" || own.role === "refuse") return own;
  const inner = scriptStdinRole(script);
  return rank[inner.role] < rank[own.role] ? inner : own;
}

/** The words of one command after its reserved words, assignments and redirections. */
function commandWords(words: readonly string[]): Word[] {
  const out: Word[] = [];
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    if (/^\d*[<>]/.test(w)) {
      if (/^\d*[<>]+&?$/.test(w)) k++;
      continue;
    }
    if (out.length === 0 && (RESERVED.has(unquote(w)) || /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w))) continue;
    out.push(/[$`{]/.test(w) ? null : unquote(w));
  }
  return out;
}

/** A `-m MODULE` program: rye cannot see what the module does with stdin (pdb runs it as commands). */
export function moduleRole(argv: readonly Word[]): StdinRole | null {
  const launch = walkLaunchers(argv);
  if (launch.family !== null || launch.program < 0) return null;
  const at = argv.slice(launch.program + 1).findIndex((w) => w === "-m" || (w !== null && /^-[A-Za-z]*m/.test(w) && !w.startsWith("--")));
  if (at < 0 || !/^python/.test(launch.name)) return null;
  return { role: "refuse", reason: `stdin of ${launch.name} -m, a module looked up at run time that may read stdin as code (pdb does)` };
}
