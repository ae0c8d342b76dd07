// Script interpreters (Python, Node, Perl, Ruby) with the part of their option grammar that says
// where they take their program from: inline text (`-c`, `-e`), a module (`-m`), a script file, or
// stdin (no script operand, or `-`). An option outside the grammar leaves the answer unknown; `-i`
// (an interactive prompt that reads stdin as code after the script) is left outside on purpose.
import type { Word } from "./shell-options.js";

/** Where an interpreter reads its program: stdin is data for "inline" and "file", code for "stdin". */
export type ProgramSource = "inline" | "file" | "stdin" | "unknown";

interface Grammar {
  /** Options whose argument is the program (or a module) itself. */
  inline: readonly string[];
  /** Single letters without an argument (may be clustered). */
  flags: string;
  /** Single letters that take an argument (attached or the next word). */
  withArg: string;
  /** Long options: name → takes an argument. */
  long: Readonly<Record<string, boolean>>;
}

const GRAMMARS: readonly [RegExp, Grammar][] = [
  [/^(?:python|pypy)[0-9.]*$/, { inline: ["-c", "-m"], flags: "bBdEhIOPqsSuvVx3R", withArg: "WX", long: { "--check-hash-based-pycs": true, "--help": false, "--version": false } }],
  [/^(?:node|nodejs)$/, { inline: ["-e", "--eval", "-p", "--print"], flags: "c", withArg: "rC", long: { "--require": true, "--import": true, "--loader": true, "--experimental-loader": true, "--input-type": true, "--conditions": true, "--no-warnings": false, "--enable-source-maps": false, "--check": false } }],
  [/^perl[0-9.]*$/, { inline: ["-e", "-E"], flags: "wWXTtnpaclsU", withArg: "IMm", long: {} }],
  [/^ruby[0-9.]*$/, { inline: ["-e"], flags: "wWvdcnpalsSy", withArg: "IrCE", long: {} }],
];

/** Whether a program name (a path's base name) is one of the interpreters above. */
export const isInterpreter = (name: string): boolean => GRAMMARS.some(([re]) => re.test(name));

/** Where interpreter `name` run with `args` takes its program; "unknown" for an option it cannot read. */
export function programSource(name: string, args: readonly Word[]): ProgramSource {
  return programPlace(name, args).source;
}

/** Where an interpreter's program is, and which argument holds it (-1 for stdin or unknown). */
export interface ProgramPlace {
  source: ProgramSource;
  /** The argument holding the program text, the module name or the script file's name. */
  index: number;
  /** `-m module`: a program found at run time, inline only in where it is named. */
  module: boolean;
}

/** Like programSource, with the argument that holds the program. */
export function programPlace(name: string, args: readonly Word[]): ProgramPlace {
  const grammar = GRAMMARS.find(([re]) => re.test(name))?.[1];
  const at = (source: ProgramSource, index = -1, module = false): ProgramPlace => ({ source, index, module });
  if (!grammar) return at("unknown");
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null || a === undefined) return at("unknown");
    if (a === "-") return at("stdin");
    if (a === "--") return args[i + 1] === undefined || args[i + 1] === "-" ? at("stdin") : at("file", i + 1);
    if (grammar.inline.includes(a)) return at("inline", i + 1, a === "-m");
    const attached = grammar.inline.find((o) => o.length === 2 && a.startsWith(o));
    if (attached !== undefined) return at("inline", i, attached === "-m");
    if (a.startsWith("--")) {
      const [key, value] = a.split(/=(.*)/s, 2) as [string, string | undefined];
      if (!Object.hasOwn(grammar.long, key)) return at("unknown");
      if (grammar.long[key] && value === undefined) i++;
      continue;
    }
    if (!a.startsWith("-")) return at("file", i);
    const skip = cluster(a, grammar);
    if (skip < 0) return at("unknown");
    i += skip;
  }
  return at("stdin");
}

/** Reads `-abc` / `-Ivalue` / `-I value`: how many following words it takes, or -1 when unknown. */
function cluster(word: string, grammar: Grammar): number {
  for (let k = 1; k < word.length; k++) {
    const c = word[k]!;
    if (grammar.inline.includes(`-${c}`)) return -1;
    if (grammar.withArg.includes(c)) return k + 1 < word.length ? 0 : 1;
    if (!grammar.flags.includes(c)) return -1;
  }
  return 0;
}

/**
 * Whether interpreter `name` goes on reading its own options after an inline program (`-e`/`-c`):
 * Node until `--`, Perl and Ruby until `--` or their first operand. Python stops at `-c` and `-m`.
 */
export const optionsAfterProgram = (name: string): boolean => !/^(?:python|pypy)[0-9.]*$/.test(name);

/**
 * Whether interpreter `name` may open its operands with a two-argument open, which reads a mode or a
 * pipe from the name itself: Perl's `<>` (and so `-n`, `-p`), Ruby's ARGF and `open`.
 */
export const opensOperands = (name: string): boolean => /^(?:perl|ruby)[0-9.]*$/.test(name);
