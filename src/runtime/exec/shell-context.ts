// The role of each placeholder in a POSIX-family shell script, proven from its syntax: an argument
// of a data command or a redirection target takes any value; any other position rye can read
// takes inert values only; a position rye cannot prove (command name, a code- or name-taking
// builtin, `[[ ]]`, arithmetic, a nested shell, an unknown launcher option…) is refused.
import { CODE_COMMANDS, DATA_COMMANDS, endsOptions, fileWriteOf, NO_END_OF_OPTIONS, redirectWriteOf, REDEFINING_COMMANDS, stringFormat } from "./data-commands.js";
import { walkLaunchers, type Launch } from "./launchers.js";
import { downstreamRole, weakenBefore, type PipeRole } from "./pipe-roles.js";
import { commandStdinRole } from "./script-stdin.js";
import { MAX_SCRIPT_NESTING, MENTION, Poison, ShellLexer, type Rec, type Role, type Token, type WordTok } from "./shell-lexer.js";
import { scriptPlaceholders } from "./shell-script.js";
import { judgeCommand } from "./unseen-programs.js";
import { wholeArgRule } from "./whole-args.js";

export type { Rec, Role } from "./shell-lexer.js";

/** A role for a whole word, with the reason when it is not `full`. */
interface WordRole {
  role: Role;
  reason?: string;
  /** Only `full` roles carry it. */
  noDash?: boolean;
  /** A redirection's file name. */
  target?: boolean;
  /** A leading `-` is harmless (echo). */
  dashData?: boolean;
}

const FULL: WordRole = { role: "full" };
// Whatever the name: a variable can carry a value into a program's environment (PYTHONPATH,
// NODE_OPTIONS, PERL5OPT, PS4 under set -x), where the program reads it as code or as a file to load.
const ASSIGNED = "as an assignment's value, which a program can read from its environment as code or a file to load (PYTHONPATH, NODE_OPTIONS, PERL5OPT, PS4)";
const STRING_TESTS = new Set(["=", "==", "!="]);
const FILE_TESTS = new Set(["-n", "-z", "-e", "-f", "-d", "-r", "-w", "-x", "-s", "-L", "-h", "-p", "-S", "-b", "-c"]);
const SEPARATORS = new Set([";", "&", "|", "&&", "||", "|&", "\n", "(", ")", "(("]);
// Sets of words or null (a word that is not all literal text, which is never a reserved word).
const SKIP_RESERVED: ReadonlySet<string | null> = new Set(["if", "then", "elif", "else", "fi", "while", "until", "do", "done", "!", "{", "}"]);
const POISON_RESERVED: ReadonlySet<string | null> = new Set(["case", "select", "function", "coproc", "esac"]);
const TARGET: WordRole = { role: "full", target: true };
const REDIRECT_ROLE: Readonly<Record<string, WordRole>> = {
  "<": TARGET,
  ">": TARGET,
  ">>": TARGET,
  ">|": TARGET,
  "<>": TARGET,
  "<&": { role: "inert", reason: "the target of a file-descriptor redirection" },
  ">&": { role: "inert", reason: "the target of a file-descriptor redirection" },
  "&>": { role: "refuse", reason: "after &>, which shells read differently" },
  "&>>": { role: "refuse", reason: "after &>>, which shells read differently" },
  "<<<": { role: "refuse", reason: "in a here-string" },
};

/** A placeholder as the reader needs it; `system` and `expr` say which one is the tool's own path. */
export interface ScriptSpan {
  start: number;
  end: number;
  system?: "env" | "param";
  expr?: string;
}

export interface ClassifyOptions {
  /** Whether placeholder `index` is bound to the tool's own file (default: every `{tool_path}`). */
  tool?: (index: number) => boolean;
  /** Whether a shell variable carries a caller's value (carried-values.ts): its expansions get roles too. */
  carried?: (name: string) => boolean;
}

/** What the reader learned about the programs a script runs (unseen-programs.ts). */
interface Programs {
  src: string;
  placeholders: readonly ScriptSpan[];
  tool: (index: number) => boolean;
  /** Why the script runs program text the build did not see. */
  unseen: string | null;
  runsTool: boolean;
  /** A command or redirection that could rewrite the tool's own file before it runs. */
  mayWrite: string | null;
  /** How many nested shells' `-c` scripts enclose this one. */
  level: number;
  /** Output of a compound command or of `exec` that goes into a file: any command may write a value there. */
  writes: string | null;
}

/** A redirection of one command: its operator and its target word. */
interface Redirect {
  op: string;
  target: WordTok;
}

/**
 * Classifies every placeholder of `script` (by index into `placeholders`). Each result has a role
 * and, when the role is not `full`, a reason naming the context. A script that runs program text
 * the build did not see refuses every placeholder (unseen-programs.ts).
 */
export function classifyScript(script: string, placeholders: readonly ScriptSpan[], options: ClassifyOptions = {}): Rec[] {
  return readScript(script, placeholders, options).recs;
}

/**
 * The expansions of carrying variables in `script`, each with the role its position has, as a
 * placeholder there would get it. A script rye cannot read yields one refused use when it names a
 * carrying variable anywhere.
 */
export function carriedUses(script: string, placeholders: readonly ScriptSpan[], carried: (name: string) => boolean): Rec[] {
  return readScript(script, placeholders, { carried }).uses;
}

/**
 * Why a script the chain wrote runs program text the build did not see, or null. Its `{name}`
 * placeholders count as values; `{tool_path}` as the tool's own file. Used where the script carries
 * values only through its arguments or stdin.
 */
export function unseenProgramIn(script: string): string | null {
  return readScript(script, scriptPlaceholders(script, (n) => /^[\p{L}\p{N}_]+$/u.test(n)), {}).unseen;
}

const toolPath = (placeholders: readonly ScriptSpan[]) => (index: number) => placeholders[index]!.system === "param" && placeholders[index]!.expr === "tool_path";

interface ReadResult {
  recs: Rec[];
  uses: Rec[];
  unseen: string | null;
}

function readScript(script: string, placeholders: readonly ScriptSpan[], options: ClassifyOptions, level = 0): ReadResult {
  const programs: Programs = { src: script, placeholders, tool: options.tool ?? toolPath(placeholders), unseen: null, runsTool: false, mayWrite: null, level, writes: null };
  const byIndex: Rec[] = [];
  const uses: Rec[] = [];
  const carried = options.carried ?? (() => false);
  try {
    const lexer = new ShellLexer(script, placeholders, (tokens) => classifyList(tokens, programs), carried);
    // Stryker disable next-line StringLiteral: the lexer tells only "paren" apart from its other modes.
    classifyList(lexer.list("top"), programs);
    for (const r of lexer.recs) {
      if (r.use) uses.push(r);
      else byIndex[r.index] = r;
    }
  } catch (e) {
    if (!(e instanceof Poison)) throw e;
    const reason = `in a script with ${e.message}, which rye does not read`;
    const recs = placeholders.map((_, index): Rec => ({ index, quote: "none", role: "refuse", reason, atWordStart: false, depth: 0 }));
    const named = [...script.matchAll(MENTION)].find((m) => carried(m[1]!));
    const poisoned: Rec[] = named ? [{ index: -1, quote: "none", role: "refuse", reason, atWordStart: false, depth: 0, use: { name: named[1]!, text: named[0] } }] : [];
    return { recs, uses: poisoned, unseen: `a script rye cannot read (${e.message})` };
  }
  const recs = placeholders.map((_, index): Rec => byIndex[index] ?? { index, quote: "none", role: "refuse", reason: "where rye could not follow the script", atWordStart: false, depth: 0 });
  const unseen = programs.unseen ?? (programs.runsTool && programs.mayWrite !== null ? `the tool's own file runs after ${programs.mayWrite}, which could rewrite it` : null);
  // A placeholder refused for its own position keeps that reason: it names the nearer fault.
  if (unseen !== null) {
    for (const r of [...recs, ...uses]) if (r.quote !== "comment" && r.role !== "refuse") Object.assign(r, { role: "refuse", reason: unseen, unseen: true });
  } else if (programs.writes !== null) refuseAll([...recs, ...uses], `${programs.writes} for every command after it or inside it`, true);
  const writes = programs.writes === null ? null : `${programs.writes} of a compound command or exec, where any command may write a value that a later command runs`;
  return { recs, uses, unseen: unseen ?? writes };
}

/** Refuses every placeholder and use in `recs` that no nearer rule refused; `file` marks the file rule. */
function refuseAll(recs: readonly Rec[], reason: string, file = false): void {
  for (const r of recs) if (r.quote !== "comment" && r.role !== "refuse") Object.assign(r, { role: "refuse", reason, noDash: false, ...(file ? { file: true } : {}) });
}

/** Gives each word of a token list its role, command by command. */
function classifyList(tokens: readonly Token[], programs: Programs): void {
  let argv: WordTok[] = [];
  let redirects: Redirect[] = [];
  let redirect: string | null = null;
  let forState: "name" | "in" | "list" | null = null;
  const pipes: [number, PipeRole][] = [];
  // The command's own environment assignments (`BASH_ENV=f sh -c …`): they can name startup files.
  let assigned = false;
  const finish = () => {
    classifyCommand(argv, programs, assigned, redirects);
    argv = [];
    redirects = [];
    assigned = false;
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === "op") {
      if (t.op === "|" || t.op === "|&") pipes.push([k, downstreamRole(tokens, k + 1)]);
      if (SEPARATORS.has(t.op)) {
        if (t.op === "(" && argv.length > 0) throw new Poison("a function definition or array assignment");
        finish();
        forState = null;
        continue;
      }
      redirect = t.op;
      continue;
    }
    if (redirect !== null) {
      if (redirect.includes(">") && t.text === null) programs.mayWrite ??= "an output redirection to a name built at run time";
      // Stryker disable next-line ObjectLiteral,StringLiteral: the lexer's other operators are all separators; this guards a new one.
      apply(t, REDIRECT_ROLE[redirect] ?? { role: "refuse", reason: `after the redirection ${redirect}` });
      redirects.push({ op: redirect, target: t });
      redirect = null;
      continue;
    }
    if (t.text === "") continue;
    if (forState !== null) {
      forState = forWord(t, forState);
      continue;
    }
    const bare = t.quoted ? null : t.text;
    if (argv.length === 0 && SKIP_RESERVED.has(bare)) continue;
    if (argv.length === 0 && POISON_RESERVED.has(bare)) throw new Poison(`a ${bare} statement`);
    if (argv.length === 0 && bare === "for") {
      forState = "name";
      continue;
    }
    if (argv.length === 0 && bare === "[[") {
      k = doubleBracket(tokens, k);
      continue;
    }
    if (argv.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(t.prefix)) {
      assigned = true;
      apply(t, { role: "refuse", reason: ASSIGNED });
      continue;
    }
    if (argv.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\[/.test(t.prefix)) {
      apply(t, { role: "refuse", reason: "in an array assignment, whose subscript is arithmetic" });
      continue;
    }
    argv.push(t);
  }
  finish();
  for (const [pipe, role] of pipes) weakenBefore(tokens, pipe, role);
}

function forWord(t: WordTok, state: "name" | "in" | "list"): "name" | "in" | "list" | null {
  if (state === "name") {
    apply(t, { role: "refuse", reason: "as the variable name of a for loop" });
    return "in";
  }
  if (state === "in" && t.text === "do" && !t.quoted) return null;
  // The word `in` itself is literal: it holds no placeholder for this role to reach.
  apply(t, { role: "inert", reason: "in the word list of a for loop (the loop variable could later be read as arithmetic or a name)" });
  // Stryker disable next-line StringLiteral: every state but "name" and "in" reads the word list.
  return "list";
}

/** Refuses everything up to the closing `]]`; returns the index of that word. */
function doubleBracket(tokens: readonly Token[], k: number): number {
  for (let j = k + 1; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.kind !== "word") continue;
    if (t.text === "]]" && !t.quoted) return j;
    apply(t, { role: "refuse", reason: "inside [[ ]], which evaluates operands as arithmetic" });
  }
  throw new Poison("an unclosed [[");
}

/**
 * The roles of one simple command's words, from the program its launchers lead to. The words before
 * the program's first argument (launchers, their options, the program) are all literal: a
 * placeholder there stops the launcher walk, so they hold no placeholder a role could reach.
 */
function classifyCommand(argv: readonly WordTok[], programs: Programs, assigned: boolean, redirects: readonly Redirect[]): void {
  const launch = walkLaunchers(argv.map((w) => w.text));
  if (launch.proven && REDEFINING_COMMANDS.has(launch.name)) throw new Poison(`${launch.name}, which changes what command names mean`);
  if (argv.length > 0) judge(argv, launch, programs, assigned);
  rolesOf(argv, launch, programs);
  fileRoles(argv, launch, programs, redirects);
}

/**
 * A value never reaches a file. A command whose words or stdin (`< {in}`) carry a value may send its
 * output only to stdout, stderr, a pipe (whose reader pipe-roles.ts judges), a duplicated descriptor
 * or /dev/null: a redirection into a file, or a data command that writes into a file its arguments
 * name (fileWriteOf), refuses the values. A redirection of a compound command or of `exec` (no
 * program) sends every later command's output there: the whole script's values are refused. And a
 * file a value names, read as stdin, is a file whose text no check bounds: taken only by a reader
 * that reads stdin as data.
 */
function fileRoles(argv: readonly WordTok[], launch: Launch, programs: Programs, redirects: readonly Redirect[]): void {
  const out = redirects.find((r) => redirectWriteOf(r.op, r.target.text) !== null);
  const said = (ws: readonly WordTok[]) => ws.map((w) => w.text ?? "…").join(" ").slice(0, 50);
  const writes = out === undefined ? null : `\`${said(argv)}${argv.length > 0 ? " " : ""}${out.op} ${said([out.target])}\` sends its output into a file`;
  if (writes !== null && (argv.length === 0 || launch.program < 0)) programs.writes ??= writes;
  // A word known only at run time may be an option, unless literal text other than `-` starts it.
  const texts = argv.slice(launch.firstArg).map((w) => w.text ?? (w.expands && (w.prefix === "" || w.prefix.startsWith("-")) ? null : "…"));
  const data = launch.proven && launch.program >= 0 && launch.family === null && DATA_COMMANDS.has(launch.name);
  const written = writes ?? (data ? fileWriteOf(launch.name, texts) : null);
  const inputs = redirects.filter((r) => !r.op.includes(">") && r.op !== "<&" && r.op !== "<<<");
  // What the command writes is the value only when its words or its stdin carry one; a value that
  // only names the file of an output redirection (`> {out}`) gets the file name's role (rule 8).
  const carried = [...argv, ...inputs.map((r) => r.target)].flatMap((w) => w.recs);
  if (written !== null && carried.some((r) => r.quote !== "comment")) {
    refuseAll([...carried, ...redirects.flatMap((r) => r.target.recs)], written, true);
    return;
  }
  if (argv.length === 0 || inputs.every((r) => r.target.recs.length === 0)) return;
  const stdin = commandStdinRole(argv.map((w) => w.text));
  if (stdin.role === "full") return;
  refuseAll(inputs.flatMap((r) => r.target.recs), `as the file name of an input redirection: the file's text, which no check of the value bounds, reaches the ${stdin.reason}`);
}

function rolesOf(argv: readonly WordTok[], launch: Launch, programs: Programs): void {
  const role = commandRole(launch);
  const roles = argv.map(() => role);
  // Only a data command rye followed may give its arguments more (printf: after a string-only format).
  if (role.role === "inert" && DATA_COMMANDS.has(launch.name)) {
    if (launch.name === "printf") printfRoles(argv, launch.firstArg, roles);
    else dataRoles(argv, launch.firstArg, roles, launch.name);
  }
  if (role.role === "inert" && (launch.name === "[" || launch.name === "test")) testRoles(argv, launch.firstArg, roles, launch.name);
  if (role.role === "inert" && launch.proven && launch.family === null) wholeUseRoles(argv, launch.program, roles, programs);
  argv.forEach((w, i) => apply(w, roles[i]!));
}

/**
 * `[ A = B ]`, `[ -n A ]`, `test -f A`: with the operator literal and the operands counted, an
 * operand is one string compared or one file tested, whatever its text. A word that may expand to
 * several (`"$@"`) could change the count, and so the operator: it gets no such role.
 */
function testRoles(argv: readonly WordTok[], first: number, roles: WordRole[], name: string): void {
  const end = name === "[" && argv.at(-1)?.text === "]" ? argv.length - 1 : argv.length;
  const k = argv[first]?.text === "!" ? first + 1 : first;
  const single = (i: number) => !argv[i]!.recs.some((r) => r.use !== undefined && /^[@*]$/.test(r.use.name));
  const full = (i: number) => {
    if (single(i)) roles[i] = FULL;
  };
  if (end - k === 3 && STRING_TESTS.has(argv[k + 1]!.text ?? "")) [k, k + 2].forEach(full);
  else if (end - k === 2 && FILE_TESTS.has(argv[k]!.text ?? "")) full(k + 1);
}

/**
 * A word that is exactly one double-quoted expansion (`"$1"`, `"$@"`) reaches its program as whole
 * arguments, like a whole placeholder of an argv: where the program's grammar reads any argument
 * there as data (an interpreter's operand after its file, a known program's after `--`), so is it.
 */
function wholeUseRoles(argv: readonly WordTok[], program: number, roles: WordRole[], programs: Programs): void {
  const texts = argv.map((w) => (isToolWord(w, programs) ? "rye-tool-file" : w.text));
  argv.forEach((w, i) => {
    const r = w.recs[0];
    if (i <= program || w.recs.length !== 1 || r!.use === undefined || r!.depth !== w.depth) return;
    if (programs.src.slice(w.start, w.end) !== `"${r!.use.text}"`) return;
    if (wholeArgRule(texts, i).kind === "any") roles[i] = FULL;
  });
}

/** Records what one command does with program text; a nested shell's literal script is read too. */
function judge(argv: readonly WordTok[], launch: Launch, programs: Programs, assigned: boolean): void {
  const verdict = judgeCommand(argv.map((w) => ({ text: w.text, expands: w.expands, tool: isToolWord(w, programs) })), launch, assigned);
  // A backstop: quoting each level of a literal -c script at least doubles its escapes, so no script
  // under the file-size limit reaches it.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral: see above.
  if (verdict.nested !== null && programs.level >= MAX_SCRIPT_NESTING) programs.unseen ??= `shells' -c scripts nested deeper than ${MAX_SCRIPT_NESTING} levels`;
  else if (verdict.nested !== null) {
    const inner = readScript(verdict.nested, [], {}, programs.level + 1);
    if (inner.unseen !== null) programs.unseen ??= `${inner.unseen}, inside a nested shell's -c script`;
  }
  programs.unseen ??= verdict.unseen;
  if (verdict.runsTool) programs.runsTool = true;
  else if (!verdict.readOnly) programs.mayWrite ??= `\`${argv.map((w) => w.text ?? "…").join(" ").slice(0, 60)}\``;
}

/** The word is exactly the tool's own path placeholder, bare or quoted. */
function isToolWord(w: WordTok, programs: Programs): boolean {
  const r = w.recs[0];
  if (w.recs.length !== 1 || r!.use !== undefined || r!.depth !== w.depth || !programs.tool(r!.index)) return false;
  const p = programs.placeholders[r!.index]!;
  const raw = programs.src.slice(p.start, p.end);
  const word = programs.src.slice(w.start, w.end);
  return word === raw || word === `"${raw}"` || word === `'${raw}'`;
}

/** The role of every argument of a command, before a data command's own rules refine it. */
function commandRole(launch: Launch): WordRole {
  // Proven without a program of its own: a shell named inside an `env -S` string (which runs a file).
  if (!launch.proven || launch.program < 0) return { role: "refuse", reason: `in a command rye cannot follow (${launch.reason ?? "a shell inside env -S"})` };
  if (launch.family) return { role: "refuse", reason: `as an argument of a nested shell (${launch.name})` };
  if (CODE_COMMANDS.has(launch.name)) return { role: "refuse", reason: `as an argument of ${launch.name}, which reads it as code, a name or arithmetic` };
  return { role: "inert", reason: `as an argument of ${launch.name}, which is not one of rye's data commands` };
}

function dataRoles(argv: readonly WordTok[], first: number, roles: WordRole[], command: string): void {
  const noEnd = NO_END_OF_OPTIONS.has(command);
  let ended = false;
  for (let i = first; i < argv.length; i++) {
    roles[i] = { role: "full", noDash: noEnd || !ended, dashData: noEnd };
    if (argv[i]!.text === "--" && (i === first || endsOptions(command, argv[i - 1]!.text))) ended = true;
  }
}

/** printf: with a literal %s-only format, the arguments after it are data (no options follow it). */
function printfRoles(argv: readonly WordTok[], first: number, roles: WordRole[]): void {
  let f = first;
  if (argv[f]?.text === "--") f++;
  const format = argv[f];
  if (!format) return;
  if (format.text !== null && format.text.startsWith("-")) {
    roles.fill({ role: "refuse", reason: "as an argument of printf with an option such as -v, which names a variable" }, first);
    return;
  }
  // The arguments after the format take any value (the format itself is literal text).
  if (format.text !== null && stringFormat(format.text)) roles.fill(FULL, f);
}

/**
 * Why a value inside a command substitution may not reach this word, or null. The output is taken
 * only inside double quotes (one word, not split or globbed), where the word takes any text as data
 * (a full role, not a file name checked by its value), and where it cannot start an option.
 */
function substitutionRefusal(r: Rec, role: WordRole): string | null {
  if (role.role !== "full" || role.target === true) return `inside a command substitution whose output, of a shape no check of the value bounds, lands ${role.target === true ? "in a redirection's file name" : "where only inert text is taken"}`;
  if (r.split === true) return "inside a command substitution outside double quotes, whose output the shell splits into words of any shape; quote it (\"$(…)\") or pass the value as a whole argument";
  if (role.noDash === true && !r.afterText) return "inside a command substitution whose output may start an argument read for options; put `--` before it or text before the substitution";
  return null;
}

/**
 * Sets the role of the word's own placeholders. A placeholder inside a `$(…)` of the word keeps the
 * weaker of its own role and the word's, and more: the substitution's output is whatever its
 * commands make of the value, of a shape no check of the value can bound, so it is taken only where
 * any text is data (substitutionRefusal).
 */
function apply(w: WordTok, role: WordRole): void {
  for (const r of w.recs) {
    if (r.depth > w.depth) {
      // A comment's placeholder inside a `$(…)` has no role and keeps none.
      if (r.role === undefined || r.role === "refuse") continue;
      const why = role.role === "refuse" ? `${role.reason ?? ""} (through a command substitution)` : substitutionRefusal(r, role);
      if (why) Object.assign(r, { role: "refuse", reason: why, noDash: false });
      continue;
    }
    if (r.role === "refuse") continue;
    r.role = role.role;
    r.reason = role.reason;
    r.noDash = role.noDash === true && r.atWordStart;
    if (role.dashData === true) r.dashData = true;
    if (role.target === true) r.target = true;
  }
}
