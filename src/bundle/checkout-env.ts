/**
 * The environment of a process a bundle run starts, with every way a variable can make the
 * checkout choose code taken out. Two kinds of variables choose code by naming files:
 *   - search lists (PATH, PYTHONPATH, NODE_PATH, LD_LIBRARY_PATH, …): an entry that lies in the
 *     checkout, or is relative (resolved against a working directory that is usually the checkout,
 *     as `npx` and `npm run` put `<project>/node_modules/.bin` first on PATH), is dropped, so the
 *     lookup falls through to the folders outside it;
 *   - files loaded before the program itself (LD_PRELOAD, BASH_ENV, NODE_OPTIONS' --require, …):
 *     one in the checkout cannot be dropped without changing what the program is, so it is refused.
 * An interpreter may also search a folder no variable names: Python puts the working directory (the
 * checkout) first on sys.path for `-c`, `-m` and a script on stdin, and a script's own folder for a
 * script. PYTHONSAFEPATH=1 (Python 3.11+) turns both off, for every Python the run starts however
 * deep (a shell that runs python3 inherits it); the bundle's own env cannot turn it back on.
 */
import { delimiter, isAbsolute } from "node:path";
import type { Checkout } from "./checkout.js";
import { checkoutMention } from "./checkout-mentions.js";

/** Variables that list folders searched for programs, modules or libraries. */
export const SEARCH_LISTS: readonly string[] = [
  "PATH", "PYTHONPATH", "NODE_PATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH",
  "PERL5LIB", "PERLLIB", "RUBYLIB", "GEM_PATH", "CLASSPATH",
];

/** Variables naming files a program (or its shell, linker, interpreter) loads before its own code. */
export const PRELOADS: readonly string[] = [
  "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "PYTHONSTARTUP", "PYTHONHOME",
];

// Node options that load a file before the program: --require x, -r x, --import=x, --loader x, …
const NODE_PRELOAD = /^(?:--require|-r|--import|--loader|--experimental-loader)(?:=(.*))?$/;

/** The environment with checkout entries dropped, or the reason it cannot run without the checkout choosing code. */
export interface CheckedEnv {
  env: Record<string, string>;
  problem: string | null;
}

const outside = (entry: string, checkout: Checkout) => entry !== "" && isAbsolute(entry) && !checkout.contains(entry);

/** `env` without checkout entries in its search lists; `problem` names a preload in the checkout. */
export function checkoutEnv(env: Readonly<Record<string, string | undefined>>, checkout: Checkout): CheckedEnv {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  for (const name of SEARCH_LISTS) {
    if (out[name] === undefined) continue;
    out[name] = out[name]!.split(delimiter).filter((entry) => outside(entry, checkout)).join(delimiter);
  }
  for (const name of PRELOADS) {
    const value = out[name];
    if (!value) continue;
    // LD_PRELOAD takes spaces and colons between files; the others name one file.
    const files = name === "LD_PRELOAD" ? value.split(/[\s:]+/).filter(Boolean) : [value];
    const bad = files.find((f) => !outside(f, checkout) && (f.includes("/") || name !== "LD_PRELOAD"));
    if (bad !== undefined) return { env: out, problem: `${name}=${bad} would load a file of the checkout (or one relative to it) before the program` };
  }
  out.PYTHONSAFEPATH = "1";
  const preload = nodePreload(out.NODE_OPTIONS ?? "", checkout);
  if (preload) return { env: out, problem: `NODE_OPTIONS would load ${preload}, a file of the checkout (or one relative to it), before the program` };
  return { env: out, problem: null };
}

/** The first file NODE_OPTIONS preloads from the checkout or by a relative path; a bare package name is resolved by node from the working directory, so it counts too. */
function nodePreload(options: string, checkout: Checkout): string | null {
  const words = options.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const m = NODE_PRELOAD.exec(words[i]!);
    if (!m) continue;
    const value = m[1] ?? words[++i] ?? "";
    const file = value.startsWith("file://") ? decodeURIComponent(value.slice(7)) : value;
    if (!outside(file, checkout)) return value;
  }
  return null;
}

// Inherited variables that stay for the spawn guard to refuse rather than being dropped: search lists
// lose only their checkout entries, a preload asked for should be reported, and without HOME programs
// ask the password database, which may name the same folder.
const REFUSED_WHEN_INHERITED = new Set(["HOME", "NODE_OPTIONS", ...PRELOADS, ...SEARCH_LISTS]);

/**
 * The inherited environment (`checkoutEnv`'s result) without the variables whose value names a
 * checkout path, whatever their name: a bundle run's children do not get them. Bookkeeping such as
 * PWD, OLDPWD, `_`, INIT_CWD or a CI's workspace variable names the checkout in every run, and an
 * absent variable cannot make a program run a checkout file (programs fall back to HOME, which the
 * spawn guard keeps outside, or to their working directory, which they read anyway).
 */
export function dropCheckoutValues(env: Readonly<Record<string, string>>, checkout: Checkout, cwd: string): Record<string, string> {
  const scope = { checkout, vouched: new Set<string>(), cwd };
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (REFUSED_WHEN_INHERITED.has(name) || checkoutMention(value, scope) === null) out[name] = value;
  }
  return out;
}
