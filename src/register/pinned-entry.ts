/**
 * The register entry as it is handed on to threads and processes: by its absolute file, never by a name.
 *
 * Node resolves `--import X` and `-r X` from the working directory of the process (or thread) that
 * starts, so `rye-build/register` carried to a child started with another `cwd`, or to a worker started
 * after `process.chdir()`, is looked up again from a folder a checkout can fill (its own
 * `node_modules/rye-build`). Only the process where the name was first resolved knows which file it
 * meant: there, every preload argument naming the running entry is replaced by that file, in
 * `process.execArgv` and `NODE_OPTIONS` alike, before any application code can start anything.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The name the docs give the register entry; bound to a file only where it was resolved. */
export const ENTRY_NAME = "rye-build/register";

const IMPORT_FLAGS = new Set(["--import"]);
const REQUIRE_FLAGS = new Set(["-r", "--require"]);

/** Decides whether a preload's value names the running entry. */
export type NamesEntry = (value: string) => boolean;

/** The running entry's own file, for `--import` (a URL) and `-r` (a path, which require() takes). */
export interface Entry {
  url: string;
  path: string;
}

/**
 * `args` with each preload (`--import X`, `--import=X`, `-r X`, `--require X`, `--require=X`) whose
 * value names the entry replaced by the entry's absolute file; every other argument as it is.
 */
export function pinnedArgs(args: readonly string[], entry: Entry, namesEntry: NamesEntry): string[] {
  const out = [...args];
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    const eq = a.indexOf("=");
    const flag = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const isImport = IMPORT_FLAGS.has(flag);
    if (!isImport && !REQUIRE_FLAGS.has(flag)) continue;
    const pinned = isImport ? entry.url : entry.path;
    if (flag !== a) {
      if (namesEntry(a.slice(eq + 1))) out[i] = `${flag}=${pinned}`;
    } else if (i + 1 < out.length) {
      if (namesEntry(out[i + 1]!)) out[i + 1] = pinned;
      i++;
    }
  }
  return out;
}

/** NODE_OPTIONS split as Node splits it: on spaces, with double quotes grouping and `\` escaping inside them. */
export function splitNodeOptions(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let started = false;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === "\\" && i + 1 < text.length) word += text[++i];
    else if (c === '"') [quoted, started] = [!quoted, true];
    else if (c === " " && !quoted) {
      if (started) words.push(word);
      [word, started] = ["", false];
    } else [word, started] = [word + c, true];
  }
  if (started) words.push(word);
  return words;
}

function quoteOption(word: string): string {
  return /^[^\s"\\]+$/.test(word) ? word : `"${word.replace(/["\\]/g, "\\$&")}"`;
}

/** NODE_OPTIONS with every preload naming the entry pinned to its file; unchanged text when none does. */
export function pinnedNodeOptions(text: string, entry: Entry, namesEntry: NamesEntry): string {
  const words = splitNodeOptions(text);
  const pinned = pinnedArgs(words, entry, namesEntry);
  return pinned.every((w, i) => w === words[i]) ? text : pinned.map(quoteOption).join(" ");
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Whether a preload value, resolved from `cwd` as it was when this process started, is the entry's
 * file: the bare name always; a path, relative path or file URL when it leads to the same real file.
 */
export function namesEntryFrom(cwd: string, entry: Entry): NamesEntry {
  const self = realOrSelf(entry.path);
  return (value) => {
    if (value === ENTRY_NAME || value === entry.url || value === entry.path) return true;
    let path: string;
    if (value.startsWith("file:")) {
      try {
        path = fileURLToPath(value);
      } catch {
        return false;
      }
    } else if (isAbsolute(value) || /^\.{1,2}[\\/]/.test(value)) path = resolve(cwd, value);
    else return false;
    return realOrSelf(path) === self;
  };
}

/** Pins the entry in this process's own `execArgv` and `NODE_OPTIONS`, which children inherit. */
export function pinEntry(entryUrl: URL): Entry {
  const entry: Entry = { url: entryUrl.href, path: fileURLToPath(entryUrl) };
  const namesEntry = namesEntryFrom(process.cwd(), entry);
  const argv = pinnedArgs(process.execArgv, entry, namesEntry);
  process.execArgv.splice(0, process.execArgv.length, ...argv);
  const options = process.env.NODE_OPTIONS;
  if (options) process.env.NODE_OPTIONS = pinnedNodeOptions(options, entry, namesEntry);
  return entry;
}
