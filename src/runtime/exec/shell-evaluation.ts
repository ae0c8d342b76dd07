// Where a shell evaluates text as arithmetic or as a variable name. bash, ksh93, mksh, lksh, posh
// and zsh read a word in such a context as an expression: a name there is a variable whose value is
// evaluated in turn, and a subscript in it (`a[$(…)]`, ``a[`…`]``) runs its command substitution,
// quoted or not. So a value is code there whatever way it arrived: spliced into the script, as "$1",
// read from stdin, from the environment, through a for-loop variable or a command's output. The
// scan below reads the script's raw text (quoted parts included, so it errs towards finding a
// context) and reports the first context whose operand is anything but a decimal numeral.
import { carriedRefusal } from "./carried-values.js";
import { walkLaunchers } from "./launchers.js";

/** An evaluation context found in a script: where it starts and what it is, for messages. */
export interface EvaluationContext {
  at: number;
  text: string;
  why: string;
}

// `$?`, `$#`, `$$` and `$!` are numbers the shell itself sets.
const NUMERAL = /^['"]?(?:[-+]?\d+|\$[?#$!])['"]?$/;
const ARITH_LITERAL = /^[\s\d+\-*/%<>=!&|^~?:(),]*$/;
const ARITH_OPS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
const TEST_WORDS = new Set(["[", "[[", "test", "]", "]]", "!", "(", ")", "-a", "-o", "&&", "||"]);
const DECLARERS = new Set(["declare", "typeset", "local", "readonly", "export"]);
const ALWAYS = new Set(["let", "integer", "float", "nameref"]);
const NAME_TAKERS = new Set(["read", "mapfile", "readarray", "getopts", "unset", "vared"]);
const NUMBER_TAKERS = new Set(["shift", "exit", "return", "ulimit", "break", "continue", "umask"]);
const PREFIXES = new Set(["if", "then", "elif", "else", "while", "until", "do", "!", "{", "}", "time", "fi", "done", "command", "builtin", "exec", "noglob"]);
// A name whose text is known: no expansion, no placeholder, no subscript.
const LITERAL_NAME = /^['"]?[A-Za-z_][A-Za-z0-9_]*['"]?(?:=.*)?$/s;
const STRING_FORMAT = /^(?:[^%]|%%|%[-+ #0]*\d*(?:\.\d*)?[sbc])*$/;

const unquote = (w: string) => w.replace(/["'\\]/g, "");
const snippet = (s: string) => (s.length > 40 ? `${s.slice(0, 37)}...` : s);

/** The first context of `script` that evaluates a non-literal operand as arithmetic or a name, or null. */
export function evaluationContextIn(script: string): EvaluationContext | null {
  return arithmeticIn(script) ?? expansionIn(script) ?? commandIn(script);
}

/** `$(( ))`, `(( ))`, `$[ ]`: an operand other than numerals and operators is a name or code. */
function arithmeticIn(script: string): EvaluationContext | null {
  for (const m of script.matchAll(/\$?\(\(|\$\[/g)) {
    const close = m[0] === "$[" ? "]" : ")";
    const open = m[0] === "$[" ? "[" : "(";
    let depth = m[0] === "$[" ? 1 : 2;
    let k = m.index + m[0].length;
    const from = k;
    for (; k < script.length && depth > 0; k++) {
      if (script[k] === open) depth++;
      else if (script[k] === close) depth--;
    }
    const body = script.slice(from, Math.max(from, k - (m[0] === "$[" ? 1 : 2)));
    if (!ARITH_LITERAL.test(body)) return { at: m.index, text: snippet(script.slice(m.index, k)), why: "arithmetic" };
  }
  return null;
}

/** `${!v}`, `${(P)v}`, `${a[i]}`, `${v:off}`, zsh's `$a[i]`: indirection, subscripts and offsets. */
function expansionIn(script: string): EvaluationContext | null {
  for (const m of script.matchAll(/\$\{([^}]*)\}?/g)) {
    const body = m[1]!;
    const hit = (why: string): EvaluationContext => ({ at: m.index, text: snippet(m[0]), why });
    if (/^[!(]/.test(body)) return hit("an indirect expansion (the value names a variable)");
    const subscript = /^#?[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]?/.exec(body);
    if (subscript && !/^(?:\d+|@|\*)$/.test(subscript[1]!)) return hit("an array subscript, which is arithmetic");
    const offset = /^(?:[A-Za-z_][A-Za-z0-9_]*|\d+|[@*])(?:\[[^\]]*\])?:([^-=?+].*)$/s.exec(body);
    if (offset && !/^[\s\d:-]*$/.test(offset[1]!)) return hit("a substring offset, which is arithmetic");
  }
  const bare = /\$[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/.exec(script);
  if (bare && !/^\d+$/.test(bare[1]!)) return { at: bare.index, text: snippet(bare[0]), why: "a zsh array subscript, which is arithmetic" };
  const assign = /(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]\+?=)/.exec(script);
  if (assign && !/^\d+$/.test(assign[2]!)) return { at: assign.index, text: snippet(assign[1]!), why: "an array assignment's subscript, which is arithmetic" };
  return null;
}

/** The simple commands of the script, roughly: each as its words, with where it starts. */
function commands(script: string, cut: string): { at: number; words: string[] }[] {
  const out: { at: number; words: string[] }[] = [];
  const separator = new RegExp(`^(?:${cut})$`);
  let at = 0;
  for (const part of script.split(new RegExp(`(${cut})`))) {
    if (part.length > 0 && !separator.test(part)) {
      // Redirections are not operands: drop `<f`, `2>&1`, and the file after a bare `>`.
      const words = part.split(/\s+/).filter((w) => w.length > 0).filter((w, i, all) => !/^\d*[<>]/.test(w) && !(i > 0 && /^\d*[<>]+&?$/.test(all[i - 1]!)));
      let k = 0;
      while (k < words.length && (PREFIXES.has(unquote(words[k]!)) || /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[k]!) || (k > 0 && /^-[A-Za-z]+$/.test(words[k]!) && ["command", "builtin", "exec"].includes(unquote(words[k - 1]!))))) k++;
      if (k < words.length) out.push({ at, words: words.slice(k) });
    }
    at += part.length;
  }
  return out;
}

/** Test operators, declarations, name-taking and number-taking builtins, printf's conversions. */
function commandIn(script: string): EvaluationContext | null {
  // A backquote both ends a command (the one inside it) and stays part of a word (the one around it).
  for (const { at, words } of ["\\$\\(|[;&|\\n()`]", "\\$\\(|[;&|\\n()]"].flatMap((cut) => commands(script, cut))) {
    const why = commandWhy(words);
    if (why !== null) return { at, text: snippet(words.join(" ")), why };
  }
  return null;
}

function commandWhy(words: readonly string[]): string | null {
  const plain = words.map(unquote);
  const name = plain[0]!.slice(plain[0]!.lastIndexOf("/") + 1);
  const args = words.slice(1);
  if (plain.some((w) => ARITH_OPS.has(w)) && words.some((w, i) => !TEST_WORDS.has(plain[i]!) && !ARITH_OPS.has(plain[i]!) && !NUMERAL.test(w))) {
    return "a numeric test, whose operands bash [[ ]], ksh, mksh and posh evaluate as arithmetic";
  }
  const vAt = plain.findIndex((w) => w === "-v" || w === "-R");
  if (vAt > 0 && ["[", "[[", "test"].includes(name) && !LITERAL_NAME.test(words[vAt + 1] ?? "")) return "a variable test, whose operand names a variable";
  if (ALWAYS.has(name)) return `${name}, which evaluates its arguments as arithmetic or names`;
  if (DECLARERS.has(name)) {
    if (args.some((w) => /^[-+][A-Za-z]*[inaA]/.test(unquote(w)))) return `${name} with an integer, reference or array attribute`;
    if (args.some((w) => !w.startsWith("-") && !LITERAL_NAME.test(w))) return `${name} of a variable whose name is not literal`;
  }
  if (NAME_TAKERS.has(name) && args.some((w) => !w.startsWith("-") && !LITERAL_NAME.test(w))) return `${name} of a variable whose name is not literal`;
  if (NUMBER_TAKERS.has(name) && args.some((w) => !NUMERAL.test(w) && !/^-[A-Za-z]+$/.test(w))) return `${name} with an operand that is not a numeral, which mksh and ksh evaluate as arithmetic`;
  if (name === "printf" || name === "print") return printfWhy(name, words.slice(1));
  return null;
}

/** printf -v names a variable; a numeric conversion evaluates its argument in ksh93, mksh and zsh. */
function printfWhy(name: string, args: readonly string[]): string | null {
  let k = 0;
  for (; k < args.length && args[k]!.startsWith("-") && args[k] !== "--"; k++) {
    if (/^-[A-Za-z]*[vf]/.test(args[k]!)) return `${name} ${args[k]}, which names a variable or takes a format`;
  }
  if (args[k] === "--") k++;
  if (name === "print") return null;
  const format = args[k];
  if (format === undefined) return null;
  const literal = /^'[^']*'$/.test(format) ? format.slice(1, -1) : /^"[^"$`\\]*"$/.test(format) ? format.slice(1, -1) : /^[^'"$`\\{]*$/.test(format) ? format : null;
  if (literal !== null && STRING_FORMAT.test(literal)) return null;
  if (args.slice(k + 1).every((w) => NUMERAL.test(w))) return null;
  return "printf with a format that is not %s-only, whose numeric conversions ksh93, mksh and zsh evaluate as arithmetic";
}

/** A caller's placeholder that reaches a script holding an evaluation context: where, for messages. */
export interface EvaluationSite {
  /** Index into the templates (0 = the command), or -1 for input_data. */
  template: number;
  start: number;
  end: number;
  message: string;
}

/** The caller's placeholders of a template: `[start, end)` of each. */
export type CallerPlaceholders = (template: string) => readonly { start: number; end: number }[];

/**
 * The rule for every channel at once: when a shell's `-c` script holds an evaluation context whose
 * operand is not a literal, no caller value may reach the script: not spliced into it, not as an
 * argument after it ("$1"), not on its stdin. Without such a context, a value that arrives as "$1"
 * or on stdin is still judged at each use (carried-values.ts). `templates` are the command and args
 * as the chain wrote them (null for a non-string); `input` is input_data's template.
 */
export function evaluationSite(templates: readonly (string | null)[], input: string | null, caller: CallerPlaceholders): EvaluationSite | null {
  const launch = walkLaunchers(templates);
  if (launch.family === null || launch.script < 0) return null;
  const script = templates[launch.script];
  if (typeof script !== "string") return null;
  const context = evaluationContextIn(script);
  if (context === null) return carriedSite(templates, launch.script, input, caller, launch.name);
  const message = (raw: string, channel: string) =>
    `placeholder '${raw}' reaches ${channel} of a ${launch.name} -c script that evaluates \`${context.text}\` (${context.why}); the shell reads a value there as code or as a variable name (a subscript such as a[$(…)] runs), whatever channel brings it. Refused. Do the arithmetic or comparison in a program that takes the value as data (python3 -c, node -e, reading sys.argv or process.argv), or compare it as text (case, [ "$1" = x ])`;
  for (let i = launch.script; i < templates.length; i++) {
    const t = templates[i];
    if (typeof t !== "string") continue;
    const p = caller(t)[0];
    if (p) return { template: i, start: p.start, end: p.end, message: message(t.slice(p.start, p.end), i === launch.script ? "the text" : "the arguments") };
  }
  const p = input === null ? undefined : caller(input)[0];
  if (input !== null && p) return { template: -1, start: p.start, end: p.end, message: message(input.slice(p.start, p.end), "the stdin (input_data)") };
  return null;
}

/**
 * The rule for values the script reads as "$1" or from stdin (carried-values.ts): each use of such a
 * value must stand where any text is data, since nothing checks the value on the way.
 */
function carriedSite(templates: readonly (string | null)[], at: number, input: string | null, caller: CallerPlaceholders, shell: string): EvaluationSite | null {
  const script = templates[at] as string;
  let arg: EvaluationSite | null = null;
  const positional: number[] = [];
  const sites: EvaluationSite[] = [];
  for (let i = at + 1; i < templates.length; i++) {
    const t = templates[i];
    const p = typeof t === "string" ? caller(t)[0] : undefined;
    if (p) positional.push(i - at - 1);
    if (p) sites.push({ template: i, start: p.start, end: p.end, message: t!.slice(p.start, p.end) });
    if (p && arg === null) arg = { template: i, start: p.start, end: p.end, message: t!.slice(p.start, p.end) };
  }
  const p = input === null ? undefined : caller(input)[0];
  const stdin: EvaluationSite | null = p ? { template: -1, start: p.start, end: p.end, message: input!.slice(p.start, p.end) } : null;
  const refusal = carriedRefusal(script, { positional, stdin: stdin !== null });
  if (refusal === null) return null;
  const n = /^\$\{?(\d+)/.exec(refusal.text);
  const own = n === null ? -1 : positional.indexOf(Number(n[1]));
  const named = own < 0 ? arg : sites[own]!;
  const site = /^\$\{?(?:\d+|[@*_]|argv|OPTARG|BASH_ARGV)\b/.test(refusal.text) && named !== null ? named : (stdin ?? arg)!;
  const channel = site.template < 0 ? "on its stdin (input_data)" : "as an argument after it";
  return {
    ...site,
    message: `placeholder '${site.message}' reaches a ${shell} -c script ${channel}, and the script uses it as \`${refusal.text}\` ${refusal.why}. A value that arrives this way is never checked, so the script may use it only where any text is data: "$1", "\${1}" or "$name" inside double quotes, as an argument of a data command after -- (printf '%s' after its format, echo), an operand of a string or file test ([ "$1" = x ]), or an operand a program reads as data (python3 {tool_path} "$1"); never an assignment's or an exported value, a program's option or code (sed -e, awk, git -c, compgen -W), or another expansion form. Refused`,
  };
}
