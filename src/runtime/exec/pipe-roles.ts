// A pipeline hands what its earlier commands write to the stdin of the command after the pipe, so a
// value that is data for `echo` is code in `echo {x} | sh`. The stdin rule (stdin-readers.ts) gives
// the role of the reading command; every placeholder that can write into that pipe keeps the weaker
// of its own role and that one.
import { DATA_COMMANDS, fileWriteOf, redirectWriteOf } from "./data-commands.js";
import { walkLaunchers } from "./launchers.js";
import type { Role, Token } from "./shell-lexer.js";
import { commandStdinRole } from "./script-stdin.js";

/** A role with the reason a placeholder gets it. */
export interface PipeRole {
  role: Role;
  reason: string;
  /** The reader writes what it reads into a file (a value never reaches a file). */
  file?: boolean;
}

const rank = { refuse: 0, inert: 1, full: 2 } as const;
const LIST_ENDS = new Set([";", "&", "\n", "&&", "||"]);
const OPENERS = new Set(["{", "if", "while", "until", "for", "case", "select"]);
const CLOSERS = new Set(["}", "fi", "done", "esac"]);
const COMPOUND = new Set(["if", "while", "until", "for", "case", "select", "[[", "!", "function", "coproc"]);

const bareWord = (t: Token): string | null => (t.kind === "word" && !t.quoted ? t.text : null);
const weaker = (a: PipeRole, b: PipeRole): PipeRole => (rank[b.role] < rank[a.role] ? b : a);

/**
 * The role of the stdin of what follows a pipe at `from`: one command, or a `( … )` / `{ … }` group
 * (the weakest of its commands). Any other compound command (a loop, `if`) is not read: inert only.
 */
export function downstreamRole(tokens: readonly Token[], from: number): PipeRole {
  const first = tokens[from];
  const group = first !== undefined && ((first.kind === "op" && first.op === "(") || bareWord(first) === "{");
  let role: PipeRole = { role: "full", reason: "" };
  let argv: (string | null)[] = [];
  // Why the command's own redirections send its output into a file.
  let written: string | null = null;
  let depth = 0;
  const finish = (): boolean => {
    const into = written ?? writerOf(argv);
    if (into !== null) role = weaker(role, { role: "refuse", reason: `through a pipe, ${into}`, file: true });
    else if (argv.length > 0) {
      const r = commandStdinRole(argv);
      role = weaker(role, { role: r.role, reason: `in output piped into the ${r.reason}` });
    }
    argv = [];
    written = null;
    return !group || depth <= 0;
  };
  depth = group ? 1 : 0;
  for (let k = group ? from + 1 : from; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === "op") {
      if (t.op === "(" || t.op === ")") depth += t.op === "(" ? 1 : -1;
      if (["(", ")", ";", "&", "|", "&&", "||", "|&", "\n"].includes(t.op)) {
        if (finish()) break;
        continue;
      }
      const target = tokens[++k];
      written ??= redirectWriteOf(t.op, target?.kind === "word" ? target.text : null);
      continue;
    }
    // The lexer leaves an empty word where a descriptor number stood (`2>f`).
    if (t.text === "") continue;
    const bare = bareWord(t);
    if (argv.length === 0 && bare === "}") depth--;
    if (argv.length === 0 && (bare === "}" || bare === "{")) {
      if (bare === "{") depth++;
      if (finish()) break;
      continue;
    }
    if (argv.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(t.prefix)) continue;
    if (argv.length === 0 && COMPOUND.has(bare ?? "")) return { role: "inert", reason: "in output piped into a compound command" };
    argv.push(t.text);
  }
  finish();
  return role;
}

/** Why a data command among `argv` writes what it reads into a file its arguments name, or null. */
function writerOf(argv: readonly (string | null)[]): string | null {
  const launch = walkLaunchers(argv);
  if (!launch.proven || launch.program < 0 || launch.family !== null || !DATA_COMMANDS.has(launch.name)) return null;
  return fileWriteOf(launch.name, argv.slice(launch.program + 1));
}

/**
 * Weakens every placeholder that writes into the pipe at `pipe`: the words of the pipeline before it,
 * back to the list separator that starts the pipeline (a group or loop before the pipe counts whole).
 */
export function weakenBefore(tokens: readonly Token[], pipe: number, role: PipeRole): void {
  if (role.role === "full") return;
  let level = 0;
  for (let j = pipe - 1; j >= 0; j--) {
    const t = tokens[j]!;
    const bare = bareWord(t);
    if (t.kind === "op") {
      if (t.op === ")") level++;
      else if (t.op === "(") level--;
      else if (LIST_ENDS.has(t.op) && level === 0) return;
      if (level < 0) return;
      continue;
    }
    if (CLOSERS.has(bare ?? "")) level++;
    else if (OPENERS.has(bare ?? "")) level--;
    if (level < 0) return;
    for (const r of t.recs) {
      if (r.quote === "comment" || rank[role.role] >= rank[r.role ?? "refuse"]) continue;
      Object.assign(r, { role: role.role, reason: role.reason, noDash: false, ...(role.file === true ? { file: true } : {}) });
    }
  }
}
