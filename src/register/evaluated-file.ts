/**
 * The files a piece of evaluated code is named by. A runner that evaluates a module itself names it
 * for stack traces and debuggers: `node:vm` takes a `filename`, code compiled with the Function
 * constructors carries a `//# sourceURL=` comment, and a runner that evaluates an ES module as a
 * function hands it an `import.meta` stand-in whose `url` / `filename` is the module's file.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Every `sourceURL=` comment (`//# `, `//@ `, in a block comment too), wherever it stands in the text. */
const SOURCE_URL = /[#@]\s*sourceURL\s*=\s*([^\s*'"`]+)/g;

function real(path: string): string {
  try {
    // One system call: the JavaScript realpath lstats every component, tens of microseconds a name.
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * The absolute file a name denotes, links resolved, or null for a name that is no file (an inline
 * script, a virtual module `\0…`, `node:`, an http URL). A query (`?v=…`, `?import`) and a hash are
 * dropped; a file URL is converted; percent-escapes in a path (whitespace, as Vite writes it) are
 * decoded; a relative name is taken from the working directory.
 */
export function fileOfName(name: string, cwd: string = process.cwd()): string | null {
  if (name.startsWith("\0")) return null;
  let path = name.replace(/[?#].*$/s, "");
  if (path.startsWith("file:")) {
    try {
      path = fileURLToPath(path);
    } catch {
      return null;
    }
  } else if (/^[a-z][a-z0-9+.-]+:/i.test(path)) {
    return null;
  } else {
    try {
      path = decodeURIComponent(path);
    } catch {
      // Not an escape sequence: the name as written.
    }
  }
  if (path === "") return null;
  return real(isAbsolute(path) ? path : resolve(cwd, path));
}

/** The files every `sourceURL` comment in `code` names (all of them: an engine honours one, a runner may append another). */
export function sourceUrlFiles(code: string): string[] {
  if (!code.includes("sourceURL")) return [];
  const files: string[] = [];
  for (const m of code.matchAll(SOURCE_URL)) {
    const file = fileOfName(m[1]!);
    if (file !== null) files.push(file);
  }
  return files;
}

/** A string data property of `value` (never a getter, which would run code while checking). */
function ownString(value: object, key: string): string | undefined {
  const d = Object.getOwnPropertyDescriptor(value, key);
  return d && "value" in d && typeof d.value === "string" ? d.value : undefined;
}

/**
 * The files the arguments of a call name as an `import.meta` stand-in: an object whose own `url` is
 * a file URL, or whose own `filename` is an absolute path. The runner builds it from the module it
 * fetched, not from the module's text, so tampered code cannot rename itself here.
 */
export function metaFiles(args: ArrayLike<unknown>): string[] {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null || typeof a !== "object") continue;
    const url = ownString(a, "url");
    const filename = ownString(a, "filename");
    if (url?.startsWith("file:")) {
      const file = fileOfName(url);
      if (file !== null) files.push(file);
    }
    if (filename !== undefined && isAbsolute(filename)) files.push(real(filename));
  }
  return files;
}
