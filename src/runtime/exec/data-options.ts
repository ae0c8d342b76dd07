// The options a data command may take and still be data. GNU sort runs a program on its temporary
// chunks (`--compress-program=sh`) and writes into `-o`'s file; an option rye has not listed may do
// the same in some implementation. So each data command has an allowlist of options that neither run
// a program nor name a file the command writes; any other option word makes the command unproven.
// One reader walks the words, knowing which options take the next word, so an option's argument
// (`sort -T --`) is never taken for the end of the options.

/** A word as the reader sees it: literal text, or null when known only at run time. */
type ArgText = string | null;

/** Long options: 0 takes no argument, 1 takes one (after `=` or as the next word), 2 only after `=`. */
type Longs = Readonly<Record<string, 0 | 1 | 2>>;

interface Allowed {
  /** Short options that take no argument. */
  flags: string;
  /** Short options that take an argument (attached or the next word). */
  withArg: string;
  long: Longs;
  /** `-NUM` (head, tail) is an option of its own. */
  numeric?: boolean;
}

const none: Allowed = { flags: "", withArg: "", long: {} };

/** GNU coreutils' options, narrowed to those that run no program and name no file the command writes. */
const ALLOWED: Readonly<Record<string, Allowed>> = {
  sort: {
    flags: "bdfgiMhnRrVsuzcCm",
    withArg: "ktTS",
    long: {
      "ignore-leading-blanks": 0, "dictionary-order": 0, "ignore-case": 0, "general-numeric-sort": 0, "ignore-nonprinting": 0,
      "month-sort": 0, "human-numeric-sort": 0, "numeric-sort": 0, "random-sort": 0, reverse: 0, "version-sort": 0, key: 1,
      "field-separator": 1, stable: 0, unique: 0, "zero-terminated": 0, check: 2, merge: 0, "buffer-size": 1,
      "temporary-directory": 1, parallel: 1, debug: 0,
    },
  },
  cat: { flags: "AbeEnstTuv", withArg: "", long: { "show-all": 0, "number-nonblank": 0, "show-ends": 0, number: 0, "squeeze-blank": 0, "show-tabs": 0, "show-nonprinting": 0 } },
  ls: {
    flags: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1",
    withArg: "IwT",
    long: { all: 0, "almost-all": 0, "human-readable": 0, reverse: 0, recursive: 0, "classify": 0, color: 2, "directory": 0, "full-time": 0, "group-directories-first": 0, "ignore": 1, inode: 0, "dereference": 0, "numeric-uid-gid": 0, "quote-name": 0, size: 0, sort: 1, time: 1, "time-style": 1, width: 1, "literal": 0, zero: 0 },
  },
  head: { flags: "qvz", withArg: "nc", long: { lines: 1, bytes: 1, quiet: 0, silent: 0, verbose: 0, "zero-terminated": 0 }, numeric: true },
  tail: { flags: "fFqvz", withArg: "ncs", long: { lines: 1, bytes: 1, quiet: 0, silent: 0, verbose: 0, "zero-terminated": 0, follow: 2, retry: 0, "sleep-interval": 1 }, numeric: true },
  wc: { flags: "clmwL", withArg: "", long: { bytes: 0, chars: 0, lines: 0, words: 0, "max-line-length": 0 } },
  cut: { flags: "nsz", withArg: "bcdf", long: { bytes: 1, characters: 1, delimiter: 1, fields: 1, complement: 0, "only-delimited": 0, "output-delimiter": 1, "zero-terminated": 0 } },
  uniq: { flags: "cdDiuz", withArg: "fsw", long: { count: 0, repeated: 0, "all-repeated": 2, "skip-fields": 1, "skip-chars": 1, "ignore-case": 0, unique: 0, "zero-terminated": 0, "check-chars": 1, group: 2 } },
  basename: { flags: "az", withArg: "s", long: { multiple: 0, suffix: 1, zero: 0 } },
  dirname: { flags: "z", withArg: "", long: { zero: 0 } },
  realpath: { flags: "eLmPqsz", withArg: "", long: { "canonicalize-existing": 0, "canonicalize-missing": 0, logical: 0, physical: 0, quiet: 0, strip: 0, "no-symlinks": 0, zero: 0, "relative-to": 1, "relative-base": 1 } },
  readlink: { flags: "efmnqsvz", withArg: "", long: { canonicalize: 0, "canonicalize-existing": 0, "canonicalize-missing": 0, "no-newline": 0, quiet: 0, silent: 0, verbose: 0, zero: 0 } },
  tee: { flags: "aip", withArg: "", long: { append: 0, "ignore-interrupts": 0, "output-error": 2 } },
  stat: { flags: "LfZt", withArg: "c", long: { dereference: 0, "file-system": 0, format: 1, printf: 1, terse: 0 } },
  du: {
    flags: "0abcDhHklLmPsSx",
    withArg: "BdtX",
    long: { null: 0, all: 0, "apparent-size": 0, "block-size": 1, bytes: 0, total: 0, "dereference-args": 0, "human-readable": 0, inodes: 0, dereference: 0, "count-links": 0, "max-depth": 1, "no-dereference": 0, "separate-dirs": 0, si: 0, summarize: 0, threshold: 1, "one-file-system": 0, exclude: 1, "exclude-from": 1 },
  },
  mkdir: { flags: "pv", withArg: "m", long: { parents: 0, verbose: 0, mode: 1 } },
  touch: { flags: "acfhm", withArg: "drt", long: { "no-create": 0, date: 1, reference: 1, time: 1, "no-dereference": 0 } },
  rm: { flags: "fiIrRdv", withArg: "", long: { force: 0, recursive: 0, dir: 0, verbose: 0, interactive: 2, "one-file-system": 0, "preserve-root": 0 } },
  rmdir: { flags: "pv", withArg: "", long: { parents: 0, verbose: 0, "ignore-fail-on-non-empty": 0 } },
  printf: none,
  // cp, mv and ln write a file whatever their options say; true and false read nothing.
  cp: none, mv: none, ln: none,
};

/**
 * Commands with an option that runs a program or writes a named file: there a word known only at
 * run time where an option may stand may be that option. (For the others every option GNU, BSD or
 * busybox gives them reads or prints only; a literal one outside the list is still refused.)
 */
const RISKY_OPTIONS: ReadonlySet<string> = new Set(["sort"]);

/** What the reader found: the operands, and the first option word outside the allowlist. */
export interface DataOptions {
  operands: ArgText[];
  unproven: string | null;
}

/** Whether `name` (a long option without its dashes and `=…`) is allowed, and how it takes its argument. */
const longKind = (allowed: Allowed, name: string): 0 | 1 | 2 | undefined => (Object.hasOwn(allowed.long, name) ? allowed.long[name] : undefined);

/**
 * Reads `command`'s words `args` with its allowlist. `echo` takes `-n`, `-e`, `-E` and prints any
 * other word; `true` and `false` read nothing. A command outside the table has no proven options.
 */
export function readDataOptions(command: string, args: readonly ArgText[]): DataOptions {
  if (command === "true" || command === "false") return { operands: [], unproven: null };
  if (command === "echo") return { operands: args.filter((a) => a === null || !/^-[neE]+$/.test(a)), unproven: null };
  const allowed = Object.hasOwn(ALLOWED, command) ? ALLOWED[command]! : null;
  const operands: ArgText[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (ended || (a !== null && (a === "-" || !a.startsWith("-")))) {
      operands.push(a);
      continue;
    }
    if (a === null) {
      if (allowed === null || RISKY_OPTIONS.has(command)) return { operands, unproven: "a word known only at run time where an option may stand" };
      operands.push(a);
      continue;
    }
    if (a === "--") {
      ended = true;
      continue;
    }
    if (allowed === null) return { operands, unproven: a };
    const taken = optionWord(allowed, a);
    if (taken === null) return { operands, unproven: a };
    i += taken;
  }
  return { operands, unproven: null };
}

/** How many following words option word `a` takes (0 or 1), or null when it is not allowed. */
function optionWord(allowed: Allowed, a: string): number | null {
  if (a.startsWith("--")) {
    const eq = a.indexOf("=");
    const kind = longKind(allowed, a.slice(2, eq < 0 ? undefined : eq));
    if (kind === undefined || (kind === 0 && eq >= 0)) return null;
    return kind === 1 && eq < 0 ? 1 : 0;
  }
  if (allowed.numeric === true && /^-\d+$/.test(a)) return 0;
  for (let k = 1; k < a.length; k++) {
    const c = a[k]!;
    if (allowed.withArg.includes(c)) return k === a.length - 1 ? 1 : 0;
    if (!allowed.flags.includes(c)) return null;
  }
  return 0;
}
