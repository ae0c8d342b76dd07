// The stdin of a shell's `-c` script is the stdin of every command in it that no pipe and no input
// redirection feeds: inside groups, loops, `$(…)`, nested shells and after `exec`. So the stdin rule
// (stdin-program.ts) is applied to each of those commands, and input_data gets the weakest role.
// The scan reads the raw text (quoted parts included, so a nested shell's script counts too).
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
  // The `$(`, backquotes and `(` that enclose the current part.
  const opens: string[] = [];
  // Arithmetic (`$(( ))`, `(( ))`) runs no command: its text is not a command's words.
  for (const part of script.replace(/\$?\(\([^()]*\)\)/g, " ").split(CUT)) {
    if (CUT.test(part) && new RegExp(`^(?:${CUT.source})$`).test(part)) {
      previous = part;
      if (part === ")") opens.pop();
      else if (part === "`" && opens.at(-1) === "`") opens.pop();
      else if (part === "$(" || part === "(" || part === "`") opens.push(part);
      continue;
    }
    const fed = previous === "|" || previous === "|&";
    const words = part.split(/\s+/).filter((w) => w.length > 0);
    // A part that ends `]]` is the rest of a `[[ … && … ]]` test, which reads no stdin.
    if (fed || words.at(-1) === "]]" || words.some((w) => /^0?<(?!&)/.test(w)) || HEADS.has(unquote(words.find((w) => !RESERVED.has(unquote(w))) ?? ""))) continue;
    const argv = commandWords(words);
    // The rest of a quoted word after a `$(…)` closes (`"$(…)"`) is no command.
    if (argv.length === 0 || argv[0] === "") continue;
    const name = argv[0] === null ? null : argv[0]!.slice(argv[0]!.lastIndexOf("/") + 1);
    if (name !== null && (NO_STDIN.has(name) || READS_DATA.has(name))) continue;
    // Inside `$(…)` the output of a stdin reader is the stdin's text made into words the script
    // uses anywhere (`sed -e "$(cat)"`), with no check of the value on the way.
    if (opens.some((o) => o !== "(")) return { role: "refuse", reason: `stdin of ${name ?? "a command"} inside a command substitution, whose output (the stdin's text) the script uses as words no check of the value bounds, inside a -c script that hands it its own stdin` };
    const own = moduleRole(argv) ?? programStdinRole(argv);
    if (rank[own.role] < rank[role.role]) role = { role: own.role, reason: `${own.reason}, inside a -c script that hands it its own stdin` };
  }
  return role;
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
