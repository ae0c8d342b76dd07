// Reads the project's configuration: rye.config.json at the project root, else the "rye" object of
// its package.json. Problems are located diagnostics in that file, never exceptions.
import { lstatSync } from "node:fs";
import { join, normalize } from "node:path";
import * as d from "../diagnostics/codes.js";
import { LineIndex, type Diagnostic, type Location } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../runtime/did-you-mean.js";
import { CONFIG_KEYS, type RyeConfig } from "./config-keys.js";
import { membersOf, rootSpan, spanAt, valueOf, type JsonMember, type JsonSpan } from "./json-members.js";
import { decodeSource, NotReadable } from "./source-text.js";
import { readRegular } from "./read-regular.js";

/** Config files are a few hundred bytes; the bound keeps a checkout's link to /dev/zero from reading forever. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** The configuration found for a project, where it came from, and what was wrong with it. */
export interface ProjectConfig {
  config: RyeConfig;
  /** The file it was read from (project-relative), or null when the project has none. */
  source: string | null;
  diagnostics: Diagnostic[];
}

/** Reads `<project>/rye.config.json`, else the `"rye"` key of `<project>/package.json`. */
export function readConfig(project: string): ProjectConfig {
  for (const [name, key] of [["rye.config.json", null], ["package.json", "rye"]] as const) {
    const path = join(project, name);
    if (!present(path)) continue;
    const text = readConfigText(path, name, project);
    if (typeof text !== "string") return { config: {}, source: name, diagnostics: [text] };
    const parsed = parseConfigText(text, name, key);
    if (parsed) return parsed;
  }
  return { config: {}, source: null, diagnostics: [] };
}

/** Whether a config file is there at all: a dangling link is reported when read, not taken for "none". */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A config file's text, read only as a regular file of at most MAX_CONFIG_BYTES (the checkout may
 * make it a FIFO or a link to a device), or the located RYE8002 saying why it is not read.
 */
export function readConfigText(path: string, name: string, project?: string): string | Diagnostic {
  const at = { source: name, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };
  try {
    // A link only to a file inside the project: the checkout chooses what its config is, not which file of the machine.
    return decodeSource(readRegular(path, { kind: "config", maxBytes: MAX_CONFIG_BYTES, link: project === undefined ? { links: "follow" } : { links: "inside", root: project } }));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = e instanceof NotReadable ? e.reason : code === "ENOENT" ? "it is a link to nothing" : code ?? "it is not valid UTF-8";
    return d.unreadablePath(at, why);
  }
}

/**
 * Parses a config file's text; `key` names the object inside it that holds the settings (package.json),
 * null for the whole file. Returns null when `key` is given and absent.
 */
export function parseConfigText(text: string, source: string, key: string | null): ProjectConfig | null {
  const lines = new LineIndex(text);
  try {
    JSON.parse(text);
  } catch (e) {
    const at = Number(/position (\d+)/.exec((e as Error).message)?.[1] ?? 0);
    return { config: {}, source, diagnostics: [d.invalidConfig(lines.location(source, at, Math.min(at + 1, text.length)), (e as Error).message)] };
  }
  let root = rootSpan(text);
  if (key !== null) {
    const pair = membersOf(text, root).find((m) => m.key === key);
    if (!pair) return null;
    root = pair.value;
  }
  const diagnostics: Diagnostic[] = [];
  const at = (span: JsonSpan): Location => lines.location(source, span.start, span.end);
  if (root.kind !== "object") return { config: {}, source, diagnostics: [d.invalidConfig(at(root), "the configuration must be a JSON object")] };
  const config: Record<string, unknown> = {};
  for (const member of membersOf(text, root)) readSetting(text, member, config, diagnostics, at);
  return { config: config as RyeConfig, source, diagnostics };
}

function readSetting(text: string, { key: name, keySpan, value: span }: JsonMember, into: Record<string, unknown>, out: Diagnostic[], at: (s: JsonSpan) => Location): void {
  if (name === "$schema") return;
  if (!Object.hasOwn(CONFIG_KEYS, name)) {
    out.push(d.unknownConfigKey(at(keySpan), name, didYouMean(name, Object.keys(CONFIG_KEYS))));
    return;
  }
  const entry = CONFIG_KEYS[name as keyof RyeConfig];
  const kind = entry[0];
  const value = valueOf(text, span);
  const fits = kind === "string[]" ? Array.isArray(value) && value.every((v) => typeof v === "string") : typeof value === kind;
  if (!fits) out.push(d.invalidConfig(at(span), `'${name}' takes ${kind === "string[]" ? "an array of strings" : `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`}`));
  else if (entry[0] !== "string[]") into[name] = value;
  else if ((value as string[]).length > entry[2]) out.push(tooMany(text, name, span, value as string[], entry[2], at));
  else into[name] = distinctPaths(value as string[]);
}

/**
 * A list past its bound is refused as a whole, located at its first entry past the bound: every
 * entry costs a command real work (a space is read in full), so the count is measured before any is used.
 */
function tooMany(text: string, name: string, span: JsonSpan, list: string[], max: number, at: (s: JsonSpan) => Location): Diagnostic {
  return d.invalidConfig(at(elementAt(text, span, max)), `'${name}' takes at most ${max} entries and this list has ${list.length}; name each folder once`);
}

/** The `index`th element of the array `span` (valid JSON); only the elements before it are scanned. */
function elementAt(text: string, span: JsonSpan, index: number): JsonSpan {
  const space = /[ \t\n\r]*/y;
  const skip = (i: number) => ((space.lastIndex = i), space.test(text), space.lastIndex);
  let i = skip(span.start + 1);
  for (let n = 0; n < index && text[i] !== "]"; n++) {
    i = skip(spanAt(text, i).end);
    if (text[i] === ",") i = skip(i + 1);
  }
  return text[i] === "]" ? span : spanAt(text, i);
}

/** The list with every entry that names the same path as an earlier one dropped ("." and "./" are one folder). */
function distinctPaths(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((entry) => {
    const key = normalize(entry).replace(/(.)[\\/]+$/, "$1");
    return !seen.has(key) && (seen.add(key), true);
  });
}
