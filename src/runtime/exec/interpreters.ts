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
  const grammar = GRAMMARS.find(([re]) => re.test(name))?.[1];
  if (!grammar) return "unknown";
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null || a === undefined) return "unknown";
    if (a === "-") return "stdin";
    if (a === "--") return args[i + 1] === undefined ? "stdin" : args[i + 1] === "-" ? "stdin" : "file";
    if (grammar.inline.includes(a) || grammar.inline.some((o) => o.length === 2 && a.startsWith(o))) return "inline";
    if (a.startsWith("--")) {
      const [key, attached] = a.split(/=(.*)/s, 2) as [string, string | undefined];
      if (!Object.hasOwn(grammar.long, key)) return "unknown";
      if (grammar.long[key] && attached === undefined) i++;
      continue;
    }
    if (!a.startsWith("-")) return "file";
    const skip = cluster(a, grammar);
    if (skip < 0) return "unknown";
    i += skip;
  }
  return "stdin";
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
