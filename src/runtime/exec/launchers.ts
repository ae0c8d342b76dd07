// Which program an argv really runs, through launchers such as `env`, `timeout`, `nice`, `sudo` or
// `busybox`, and whether that program is a POSIX-family shell running a `-c` script. Both tables are
// ALLOWLISTS with each launcher's option grammar: an unknown launcher option, an unknown shell option
// or a launcher operand that is not a literal of the expected shape means "not proven", and the
// caller then treats every spliced value as untrusted text (only inert values).
import { parseShellOptions, shellFamily, type ShellFamily, type Word } from "./shell-options.js";

export type { ShellFamily, Word } from "./shell-options.js";

/** Where an argv leads. Indices are into the argv given (argv[0] is the command). */
export interface Launch {
  /** Index of the program that finally runs, or -1 when the walk could not prove one. */
  program: number;
  /** The program's base name (busybox applets by their applet name). */
  name: string;
  /** The shell family when the program is a known POSIX-family shell. */
  family: ShellFamily | null;
  /** Index in argv of the program's first argument (argv.length when it has none). */
  firstArg: number;
  /** Index of the `-c` script in argv, or -1 when the shell runs no `-c` script. */
  script: number;
  /** False when an unknown launcher option or shell option stopped the proof. */
  proven: boolean;
  /** Why the walk is not proven, for messages. */
  reason?: string;
}

interface Grammar {
  /** Single-letter options without an argument (may be clustered). */
  flags?: string;
  /** Single-letter options that take an argument (attached or the next word). */
  withArg?: string;
  /** Long options: name → takes an argument. */
  long?: Readonly<Record<string, boolean>>;
  /** `nice -10`: a numeric option. */
  numericFlag?: boolean;
  /** Literal operands between the options and the command (timeout's duration, chrt's priority). */
  operands?: readonly RegExp[];
  /** `env`: NAME=value words before the command. */
  assignments?: boolean;
  /** `env -S` / `--split-string`: the option whose value is split into words that take its place. */
  split?: { short: string; long: string };
}

const DURATION = /^\d+(?:\.\d+)?[smhd]?$/;
const INTEGER = /^-?\d+$/;
const MASK = /^(?:0x)?[0-9a-fA-F]+$|^[0-9,-]+$/;

/** The launchers rye can see through, with the options each accepts. Anything else is not proven. */
export const LAUNCHERS: Readonly<Record<string, Grammar>> = {
  env: { flags: "i0v", withArg: "uCS", long: { "ignore-environment": false, null: false, unset: true, chdir: true, "split-string": true, debug: false }, assignments: true, split: { short: "S", long: "split-string" } },
  timeout: { flags: "v", withArg: "sk", long: { signal: true, "kill-after": true, "preserve-status": false, foreground: false, verbose: false }, operands: [DURATION] },
  nice: { withArg: "n", long: { adjustment: true }, numericFlag: true },
  nohup: {},
  setsid: { flags: "cfw", long: { ctty: false, fork: false, wait: false } },
  stdbuf: { withArg: "ioe", long: { input: true, output: true, error: true } },
  ionice: { flags: "t", withArg: "cn", long: { class: true, classdata: true, ignore: false } },
  chrt: { flags: "bfiordaRv", withArg: "TPD", long: { batch: false, fifo: false, idle: false, other: false, rr: false, deadline: false, "reset-on-fork": false, verbose: false }, operands: [INTEGER] },
  taskset: { flags: "ac", long: { "all-tasks": false, "cpu-list": false }, operands: [MASK] },
  time: { flags: "pvqa", withArg: "fo", long: { portability: false, verbose: false, quiet: false, append: false, format: true, output: true } },
  command: { flags: "p" },
  exec: { flags: "cl", withArg: "a" },
  xargs: { flags: "0rtxp", withArg: "nLPsdaE", long: { null: false, "no-run-if-empty": false, verbose: false, exit: false, "max-args": true, "max-lines": true, "max-procs": true, "max-chars": true, delimiter: true, "arg-file": true } },
  sudo: { flags: "EHnPSbk", withArg: "ugCDhpTr", long: { "preserve-env": false, "set-home": false, "non-interactive": false, user: true, group: true } },
  doas: { flags: "n", withArg: "u" },
};

const base = (word: string) => word.slice(word.lastIndexOf("/") + 1);

type Words = { word: Word; at: number }[];

/** One change `env` makes before it runs its command: an assignment, `-u`, `-i` or `-C`. */
export type EnvEffect = { set: string; value: string; at: number } | { unset: string } | { clear: true } | { chdir: string };

/**
 * What a walk passed on its way, for a caller that judges the process really started (a bundle
 * run's spawn guard): every program word, launchers included, and what `env` changed.
 */
export interface LaunchTrace {
  /**
   * Each program word in order; `index` points into `words` as they were when it was reached, `at`
   * into argv (-1 inside `env -S`), `effects` counts the effects made before it (what it runs under).
   */
  hops: { word: string; at: number; index: number; effects: number }[];
  /** The words as the walk last saw them (after any `env -S` split). */
  words: Word[];
  effects: EnvEffect[];
}

/** Walks `argv` (templates: null for a word that is not a literal) to the program it runs; `trace` collects the way there. */
export function walkLaunchers(argv: readonly Word[], trace?: LaunchTrace): Launch {
  let words: Words = argv.map((word, at) => ({ word, at }));
  if (trace) trace.words = words.map((w) => w.word);
  for (let i = 0, hops = 0; i < words.length && hops < 32; hops++) {
    const word = words[i]!.word;
    if (word !== null) trace?.hops.push({ word, at: words[i]!.at, index: i, effects: trace.effects.length });
    const unproven = (reason: string): Launch => ({ program: -1, name: word === null ? "" : base(word), family: null, firstArg: argv.length, script: -1, proven: false, reason });
    if (word === null) return unproven("the program is not a literal word");
    let name = base(word);
    if (name === "busybox") {
      const applet = words[i + 1]?.word;
      if (applet === null || applet === undefined) return unproven("busybox without a literal applet");
      i++;
      trace?.hops.push({ word: applet, at: words[i]!.at, index: i, effects: trace.effects.length });
      name = base(applet);
      const family = shellFamily(name, true);
      if (family) return shellLaunch(words, i, name, family, argv.length);
    }
    const family = shellFamily(name, false);
    if (family) return shellLaunch(words, i, name, family, argv.length);
    const grammar = Object.hasOwn(LAUNCHERS, name) ? LAUNCHERS[name]! : null;
    if (!grammar) {
      const program = { program: words[i]!.at, name, family: null, firstArg: firstReal(words, i + 1, argv.length), script: -1 };
      return program.program === SPLIT ? { ...program, proven: false, reason: "the program is inside env -S" } : { ...program, proven: true };
    }
    const next = skipOptions(words, i + 1, grammar, name, trace?.effects);
    if (typeof next === "string") return unproven(next);
    if (Array.isArray(next)) {
      words = next;
      if (trace) trace.words = words.map((w) => w.word);
      i = 0;
      continue;
    }
    if (next >= words.length) return unproven(`${name} runs no command`);
    i = next;
  }
  return { program: -1, name: "", family: null, firstArg: argv.length, script: -1, proven: false, reason: "no program" };
}

/** The `at` of a word split out of an `env -S` string: it has no argv element of its own. */
const SPLIT = -1;

const firstReal = (words: Words, from: number, end: number) => words.slice(from).find((w) => w.at !== SPLIT)?.at ?? end;

function shellLaunch(words: Words, i: number, name: string, family: ShellFamily, end: number): Launch {
  const parsed = parseShellOptions(words.slice(i + 1).map((w) => w.word));
  const at = words[i]!.at;
  const firstArg = firstReal(words, i + 1, end);
  if (typeof parsed === "string") return { program: at, name, family, firstArg, script: -1, proven: false, reason: parsed };
  if (parsed === -1) return { program: at, name, family, firstArg, script: -1, proven: true };
  // parseShellOptions found the script's word, so it exists.
  const script = words[i + 1 + parsed]!.at;
  // A script inside a split `env -S` string has no argv element of its own: not proven.
  if (script === SPLIT) return { program: at, name, family, firstArg, script: -1, proven: false, reason: "the script is inside env -S" };
  return { program: at, name, family, firstArg, script, proven: true };
}

/**
 * The index of the launched command after `grammar`'s options and operands, a new word list when
 * `env -S` split its string (positions inside it get `at` -1), or a reason the walk stops.
 */
function skipOptions(words: Words, start: number, grammar: Grammar, name: string, effects?: EnvEffect[]): number | Words | string {
  let i = start;
  let operands = 0;
  const need = grammar.operands ?? [];
  while (i < words.length) {
    const w = words[i]!.word;
    if (w === null) return `${name}: a placeholder where an option or the command stands`;
    if (w === "--") {
      i++;
      break;
    }
    if (w.startsWith("--")) {
      const [key, attached] = w.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (!grammar.long || !Object.hasOwn(grammar.long, key)) return `${name}: unknown option --${key}`;
      const value = grammar.long[key] ? (attached ?? words[++i]?.word) : undefined;
      if (grammar.long[key] && (value === undefined || value === null)) return `${name}: --${key} without a literal value`;
      if (key === grammar.split?.long) return splitString(words, i + 1, value!, name);
      if (grammar.assignments) noteEnvOption(key === "ignore-environment" ? "i" : key === "unset" ? "u" : key === "chdir" ? "C" : "", value ?? undefined, effects);
      i++;
      continue;
    }
    if (w.startsWith("-") && w.length > 1) {
      if (grammar.numericFlag && /^-\d+$/.test(w)) {
        i++;
        continue;
      }
      const r = shortCluster(words, i, grammar, name, effects);
      if (typeof r !== "number") return r;
      i = r;
      continue;
    }
    break;
  }
  if (grammar.assignments) {
    for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.word ?? ""); i++) {
      const w = words[i]!.word!;
      effects?.push({ set: w.slice(0, w.indexOf("=")), value: w.slice(w.indexOf("=") + 1), at: words[i]!.at });
    }
  }
  for (; operands < need.length; operands++, i++) {
    // A placeholder (null) or a missing word reads as "null" or "undefined", which no operand pattern accepts.
    if (!need[operands]!.test(String(words[i]?.word))) return `${name}: expected a literal ${need[operands]} operand`;
  }
  return i;
}

/** One `-abc` / `-uNAME` / `-u NAME` word; returns the next index or the split word list. */
function shortCluster(words: Words, i: number, grammar: Grammar, name: string, effects?: EnvEffect[]): number | Words | string {
  const w = words[i]!.word!;
  for (let k = 1; k < w.length; k++) {
    const c = w[k]!;
    if (grammar.flags?.includes(c)) {
      if (grammar.assignments) noteEnvOption(c, undefined, effects);
      continue;
    }
    if (!grammar.withArg?.includes(c)) return `${name}: unknown option -${c}`;
    const attached = w.slice(k + 1);
    const value = attached !== "" ? attached : words[i + 1]?.word;
    if (value === undefined || value === null) return `${name}: -${c} without a literal value`;
    const next = attached !== "" ? i + 1 : i + 2;
    if (c === grammar.split?.short) return splitString(words, next, value, name);
    if (grammar.assignments) noteEnvOption(c, value, effects);
    return next;
  }
  return i + 1;
}

/** `env -i`, `-u NAME`, `-C DIR` (and their long forms) as effects on the command's environment. */
function noteEnvOption(letter: string, value: string | undefined, effects: EnvEffect[] | undefined): void {
  if (letter === "i") effects?.push({ clear: true });
  else if (letter === "u" && value !== undefined) effects?.push({ unset: value });
  else if (letter === "C" && value !== undefined) effects?.push({ chdir: value });
}

/** `env -S 'a b c'`: the string's words take the place of the option; no quotes, `\` or `$` allowed. */
function splitString(words: Words, rest: number, value: string, name: string): Words | string {
  if (/[\\'"$#]/.test(value)) return `${name} -S with quotes, escapes or variables is not proven`;
  const split = value.match(/[^ \t\n]+/g) ?? [];
  // env goes on reading options and assignments from the split words, as GNU env does.
  return [{ word: name, at: SPLIT }, ...split.map((word) => ({ word, at: SPLIT })), ...words.slice(rest)];
}
