// A caller's value that is a whole argv element reaches its program as exactly that element, with no
// shell: but the program still parses it. Whether the value is data depends on the program's own
// grammar, so the rule is stated over the receiving program, as an allowlist:
//   - a program on the grammar table (program-grammars.ts, interpreters.ts) takes any value at a
//     position it reads as data, and a value not starting with `-` (or `+`) where it still reads
//     options; where rye can see the option before it, a value that option may take as code is refused;
//   - Perl and Ruby open their operands with a two-argument open (`<>`, `-n`, `-p`, ARGF): a value
//     shaped like an open mode or a pipe (`cmd|`, `<f`, `>f`) is refused there;
//   - every other program, and any program named by a value (`${SHELL}`), is unproven: inert values
//     only, and none right after one of its options (`-c`, `-e`, `--command` may take code);
//   - programs that run their arguments as commands (COMMAND_RUNNERS) take no caller value at all.
import { isInert, INERT_DESCRIPTION } from "./inert.js";
import { optionsAfterProgram, programPlace, isInterpreter, opensOperands } from "./interpreters.js";
import { walkLaunchers } from "./launchers.js";
import { COMMAND_RUNNERS, GIT_DATA_SUBCOMMANDS, GIT_GLOBAL_WITH_ARG, operandGrammar, type OperandGrammar } from "./program-grammars.js";
import { locateShellOperands, type Word } from "./shell-options.js";

/** What a whole caller value at one argv position may be. */
export type WholeRule =
  | { kind: "any" }
  /** Not starting with `-` (or `+` when `plus`); `end` is the word to write before it, if any. */
  | { kind: "operand"; program: string; plus: boolean; end: string | null }
  /** Not a two-argument open's mode or pipe; a leading `-` only when `dash`. */
  | { kind: "open"; program: string; dash: boolean }
  | { kind: "inert"; program: string }
  | { kind: "refused"; why: string };

const ANY: WholeRule = { kind: "any" };
const OPTION = /^[-+]./;

const base = (word: string) => word.slice(word.lastIndexOf("/") + 1);

/**
 * The rule for a whole caller value at `index` of `argv` (null for a word holding a value).
 * `resolved` is the command as it runs, when argv[0] is a value (`${RYE_NODE}`): an interpreter named
 * that way is judged by its grammar (the runtimes' `${RYE_NODE} {tool_path} …`); any other program
 * named by a value is unproven, since a shell under any name would take its `-c` script unbound.
 */
export function wholeArgRule(argv: readonly Word[], index: number, resolved?: string): WholeRule {
  if (argv[0] === null || argv[0] === undefined) {
    if (resolved === undefined || !isInterpreter(base(resolved))) return unproven(argv, 1, index, "a program named by a value (its name is known only at run time)");
    return wholeArgRule([resolved, ...argv.slice(1)], index);
  }
  const launch = walkLaunchers(argv);
  if (launch.program < 0) return { kind: "refused", why: `rye cannot follow this launch (${launch.reason ?? "no program"})` };
  if (index <= launch.program) return { kind: "refused", why: `it stands in the launch of ${launch.name}, not among its arguments` };
  const name = launch.name;
  const from = launch.program + 1;
  if (COMMAND_RUNNERS.has(name)) return { kind: "refused", why: `${name} runs its arguments as a command or as code` };
  if (launch.family !== null) return shellRule(argv, index, from, launch.script, name);
  if (isInterpreter(name)) return interpreterRule(argv, index, from, name);
  if (name === "git") return gitRule(argv, index, from);
  const grammar = operandGrammar(name);
  if (grammar) return knownRule(argv, index, from, name, grammar);
  return unproven(argv, from, index, `${name}, a program whose grammar rye does not know`);
}

function shellRule(argv: readonly Word[], index: number, from: number, script: number, name: string): WholeRule {
  // After a `-c` script or a script file, a shell's words are positional parameters, never options.
  if (script >= 0) return index >= script ? ANY : { kind: "refused", why: `it stands among ${name}'s own options` };
  // A script file rye can place: the shell's first word, or the word after a leading `--`.
  const where = locateShellOperands(argv.slice(from));
  const file = argv[from] === "--" ? from + 1 : from;
  if (where && !where.stdin && typeof argv[file] === "string" && !OPTION.test(argv[file]!) && index > file) return ANY;
  return { kind: "refused", why: `${name} would read it as an option or as the file of its script` };
}

function interpreterRule(argv: readonly Word[], index: number, from: number, name: string): WholeRule {
  const place = programPlace(name, argv.slice(from));
  const program = from + place.index;
  // The inline program itself is the tool author's chosen code position, not data read as code.
  if (place.source === "inline" && !place.module && index === program) return ANY;
  if ((place.source !== "inline" && place.source !== "file") || index <= program) {
    return { kind: "refused", why: `${name} would read it as its program, or as an option that can load or run code` };
  }
  // `-m module`: the module is a program rye does not know.
  if (place.module) return unproven(argv, program + 1, index, `the module ${String(argv[program])} that ${name} runs`);
  const ended = place.source === "file" || !optionsAfterProgram(name) || hasEnd(argv, program + 1, index, ["--"]);
  if (opensOperands(name)) return !ended && afterOption(argv, index, program + 1) ? optionRefusal(argv, index, name) : { kind: "open", program: name, dash: ended };
  if (ended) return ANY;
  if (afterOption(argv, index, program + 1)) return optionRefusal(argv, index, name);
  return { kind: "operand", program: name, plus: false, end: "--" };
}

function gitRule(argv: readonly Word[], index: number, from: number): WholeRule {
  let i = from;
  while (i < index && typeof argv[i] === "string" && OPTION.test(argv[i]!)) i += GIT_GLOBAL_WITH_ARG.has(argv[i]!) ? 2 : 1;
  const sub = argv[i];
  if (i >= index || typeof sub !== "string") return { kind: "refused", why: "it stands where git reads its own options or its subcommand (an alias can run a command)" };
  if (!GIT_DATA_SUBCOMMANDS.has(sub)) return { kind: "refused", why: `git ${sub} is not a git subcommand rye knows to read its operands as data (config, aliases, bisect run and submodule foreach run commands)` };
  return knownRule(argv, index, i + 1, "git", operandGrammar("git")!);
}

function knownRule(argv: readonly Word[], index: number, from: number, name: string, grammar: OperandGrammar): WholeRule {
  if (hasEnd(argv, from, index, grammar.ends, grammar)) return ANY;
  if (grammar.firstOperandEnds && argv.slice(from, index).some((w) => typeof w === "string" && !w.startsWith("-"))) return ANY;
  const prev = index > from ? argv[index - 1] : null;
  // A `--` that ended nothing is an option's argument or an operand itself: either way not an option.
  if (typeof prev === "string" && prev !== "--" && (prev.startsWith("-") || (grammar.plus && prev.startsWith("+"))) && prev.length > 1 && !takesNoWord(prev, grammar)) {
    if (!(grammar.withArg !== null && /^-[^-]/.test(prev))) return optionRefusal(argv, index, name);
  }
  return { kind: "operand", program: name, plus: grammar.plus, end: grammar.ends[grammar.ends.length - 1] ?? null };
}

/** Whether option word `prev` leaves the next word alone: `--x=v`, a flag cluster, git's `-1`. */
function takesNoWord(prev: string, grammar: OperandGrammar): boolean {
  if (prev.startsWith("--")) return prev.includes("=");
  if (/^-\d+$/.test(prev)) return true;
  if (grammar.withArg === null) return false;
  const at = [...prev.slice(1)].findIndex((c) => grammar.withArg!.includes(c));
  return at < 0 || at + 2 < prev.length;
}

/**
 * A literal end-of-options word in argv[from..index) that ends the options where it stands: not the
 * argument of an option before it (`sort -T --`, `node --require --`). Without a grammar, any
 * option-looking word before it may take it.
 */
function hasEnd(argv: readonly Word[], from: number, index: number, ends: readonly string[], grammar: OperandGrammar | null = null): boolean {
  for (let i = from; i < index; i++) {
    const w = argv[i];
    if (typeof w !== "string" || !ends.includes(w)) continue;
    const prev = i > from ? argv[i - 1] : null;
    if (typeof prev !== "string" || !OPTION.test(prev) || (grammar !== null && takesNoWord(prev, grammar))) return true;
  }
  return false;
}

const afterOption = (argv: readonly Word[], index: number, from: number): boolean => {
  const prev = index > from ? argv[index - 1] : null;
  return typeof prev === "string" && OPTION.test(prev) && prev !== "--" && !/^--[^=]+=/.test(prev);
};

const optionRefusal = (argv: readonly Word[], index: number, name: string): WholeRule => ({
  kind: "refused",
  why: `it follows ${name}'s option ${String(argv[index - 1])}, which may take it as code, a command or a file to load`,
});

function unproven(argv: readonly Word[], from: number, index: number, who: string): WholeRule {
  if (afterOption(argv, index, from)) return { kind: "refused", why: `it follows the option ${String(argv[index - 1])} of ${who}, which may take it as code or a command` };
  return { kind: "inert", program: who };
}

/** A value Perl's or Ruby's two-argument open reads as a mode or a pipe: leading `<>+|&=`, space, trailing `|`. */
const MAGIC_OPEN = /^[\s<>+|&=]|[\s|]$/;

/**
 * Why `value`, a whole argument for `placeholder` under `rule`, is refused, or null. The message names
 * the placeholder and says what to write instead.
 */
export function wholeArgProblem(placeholder: string, value: string, rule: WholeRule): string | null {
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  switch (rule.kind) {
    case "any":
      return null;
    case "refused":
      return `placeholder '${placeholder}' is a whole argument where rye cannot prove its value is data: ${rule.why}; refused. Give the value to a program that reads it as data (a script of the tool: args: ["{tool_path}", "${placeholder}"], or node -e/perl -e '…' with args: [..., "--", "${placeholder}"]), or pass it on stdin`;
    case "operand": {
      const lead = value[0];
      if (lead !== "-" && !(rule.plus && lead === "+")) return null;
      const fix = rule.end === null ? `${rule.program} ends its options at no word: use printf '%s\\n' with args: [..., "--", "${placeholder}"]` : `write "${rule.end}" before it: args: [..., "${rule.end}", "${placeholder}"]`;
      return `the value of ${placeholder} (${shown}) starts with "${lead}", and ${rule.program} still reads options where ${placeholder} stands, so it would be an option; refused. To pass values that start with "${lead}", ${fix}`;
    }
    case "open":
      if (!MAGIC_OPEN.test(value) && (rule.dash || !value.startsWith("-"))) return null;
      return `the value of ${placeholder} (${shown}) is refused: ${rule.program} opens its file operands with a two-argument open (<>, -n, -p), which reads a leading <, >, +, |, &, = or space, or a trailing | or space, as a mode or a command${rule.dash ? "" : ", and before \"--\" a leading - as an option"}. Pass such a value after "--" and open it yourself with a three-argument open, or pass it on stdin`;
    case "inert":
      if (isInert(value)) return null;
      return `the value of ${placeholder} (${shown}) is a whole argument of ${rule.program}, where rye accepts only inert values (${INERT_DESCRIPTION}); refused. Pass it to a program rye knows reads it as data (a script of the tool: args: ["{tool_path}", "${placeholder}"]; python3 -c '…' ${placeholder}; node -e '…' -- ${placeholder}), or on stdin`;
  }
}
