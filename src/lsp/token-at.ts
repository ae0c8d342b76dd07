// The name under the cursor: an input (in a placeholder or its declaration), an item id, a call's
// parameter key, or a diagnostic code. Hover, definition, references and rename start here.
import type { ItemKind } from "../model/source.js";
import { upToLastCloser } from "../runtime/interpolate.js";

/** A name in the text, with the offsets of the name itself. */
export type Token =
  | { kind: "input"; name: string; start: number; end: number }
  | { kind: "id"; itemKinds: ItemKind[]; id: string; start: number; end: number }
  | { kind: "call-param"; itemKinds: ItemKind[]; target: string; name: string; start: number; end: number }
  | { kind: "code"; code: string; start: number; end: number };

const NAME = String.raw`[\p{L}\p{N}_]+`;

/** The token of a directive's text at `offset`, if the cursor is on one. */
export function tokenAt(text: string, offset: number): Token | null {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const lineEnd = text.indexOf("\n", offset) === -1 ? text.length : text.indexOf("\n", offset);
  const line = text.slice(lineStart, lineEnd);
  const at = offset - lineStart;
  const hit = <T>(re: RegExp | ((text: string) => Iterable<RegExpMatchArray>), make: (m: RegExpExecArray, s: number, e: number) => T | null): T | null => {
    for (const m of typeof re === "function" ? re(line) : line.matchAll(re)) {
      const groupStart = m.index! + m[0].indexOf(m[1]!);
      const groupEnd = groupStart + m[1]!.length;
      if (at >= groupStart && at <= groupEnd) return make(m as RegExpExecArray, lineStart + groupStart, lineStart + groupEnd);
    }
    return null;
  };
  return (
    placeholderAt(text, offset, "{input:", INPUT_REF) ??
    placeholderAt(text, offset, "${inputs.", DOLLAR_INPUT) ??
    hit(new RegExp(String.raw`\{input:(${NAME})`, "gu"), (m, s, e) => ({ kind: "input" as const, name: m[1]!, start: s, end: e })) ??
    hit(new RegExp(String.raw`\$\{inputs\.(${NAME})\}`, "gu"), (m, s, e) => ({ kind: "input" as const, name: m[1]!, start: s, end: e })) ??
    hit(declarations(NAME), (m, s, e) => ({ kind: "input" as const, name: m[1]!, start: s, end: e })) ??
    hit(/\b(RYE\d{4})\b/g, (m, s, e) => ({ kind: "code" as const, code: m[1]!, start: s, end: e })) ??
    hit(/\bextends="([^"]+)"/g, (m, s, e) => ({ kind: "id" as const, itemKinds: ["directive"] as ItemKind[], id: m[1]!, start: s, end: e })) ??
    hit(/<(?:before|after|system|suppress)>\s*([^<\s]+)\s*</g, (m, s, e) => ({ kind: "id" as const, itemKinds: ["knowledge"] as ItemKind[], id: m[1]!, start: s, end: e })) ??
    callToken(line, at, lineStart)
  );
}

// A whole placeholder as the compiler reads it (grammar/placeholders.peggy): `{input:` and the
// modifier or fallback after the name belong to it as much as the name does.
const INPUT_REF = new RegExp(String.raw`\{input:(${NAME})(?:\?|[:|][^}]*)?\}`, "gu");
const DOLLAR_INPUT = new RegExp(String.raw`\$\{inputs\.(${NAME})\}`, "gu");

/**
 * The input of the placeholder `offset` is anywhere on, from its `{` to its `}`. The scan starts at
 * the line of the nearest opener and goes left to right, as the compiler's does, so a fallback that
 * holds an opener (`{input:a|{input:b}`) is part of the first placeholder, and a fallback running
 * over a line break is found from its own opening line.
 */
function placeholderAt(text: string, offset: number, opener: string, pattern: RegExp): Token | null {
  const near = text.lastIndexOf(opener, offset);
  if (near === -1) return null;
  const re = new RegExp(pattern.source, pattern.flags);
  re.lastIndex = text.lastIndexOf("\n", near - 1) + 1;
  let found: RegExpExecArray | null = null;
  // The last one reaching the cursor: where one ends and the next begins, the cursor is on the next.
  // Matches end in `}`: up to the last one, no opener's search reads past the next `}` again.
  const head = upToLastCloser(text);
  for (let m = re.exec(head); m !== null && m.index <= offset; m = re.exec(head)) if (offset <= m.index + m[0].length) found = m;
  if (!found) return null;
  const start = found.index + opener.length;
  return { kind: "input", name: found[1]!, start, end: start + found[1]!.length };
}

/**
 * The matches of `<input\b[^>]*?\bname="(name)"`, as `matchAll` gives them, in linear time. A match
 * holds no `>`, so when the search from one `<input` fails, so does the search from every later
 * `<input` before the same `>`: the scan moves on past that `>` instead of reading the rest again.
 */
const declarations = (name: string) =>
  function* (text: string): Generator<RegExpMatchArray> {
    const re = new RegExp(String.raw`<input\b[^>]*?\bname="(${name})"`, "uy");
    for (let at = text.indexOf("<input"); at !== -1; ) {
      re.lastIndex = at;
      const m = re.exec(text);
      let next: number;
      if (m) {
        yield m;
        next = at + m[0].length;
      } else if (/\w/.test(text[at + 6] ?? "")) {
        next = at + 1; // `<inputs…`: no `<input\b` here, so later ones are not ruled out.
      } else {
        const gt = text.indexOf(">", at);
        if (gt === -1) return;
        next = gt + 1;
      }
      at = text.indexOf("<input", next);
    }
  };

/** An item id or a parameter key inside a backtick call such as `rye_execute(item_id="x", parameters={"k": …})`. */
function callToken(line: string, at: number, lineStart: number): Token | null {
  for (const call of line.matchAll(/rye_(?:execute|search|load|fetch|sign)\(([^`]*?)\)?(?=`|$)/g)) {
    const args = call[1]!;
    const base = call.index! + call[0].indexOf(args);
    if (at < base || at > base + args.length) continue;
    const type = /\bitem_type="([^"]*)"/.exec(args)?.[1];
    const itemKinds: ItemKind[] = type === "tool" ? ["tool"] : type === "directive" ? ["directive"] : type === "knowledge" ? ["knowledge"] : ["directive", "tool", "knowledge"];
    const id = /\bitem_id="([^"]*)"/.exec(args);
    if (id) {
      const s = base + id.index + id[0].indexOf('"') + 1;
      if (at >= s && at <= s + id[1]!.length) return { kind: "id", itemKinds, id: id[1]!, start: lineStart + s, end: lineStart + s + id[1]!.length };
    }
    const params = /\bparameters=\{/.exec(args);
    if (!id || !params) continue;
    for (const key of args.slice(params.index).matchAll(/[{,]\s*"([\w]+)"\s*:/g)) {
      const s = base + params.index + key.index! + key[0].indexOf('"') + 1;
      if (at >= s && at <= s + key[1]!.length) return { kind: "call-param", itemKinds, target: id[1]!, name: key[1]!, start: lineStart + s, end: lineStart + s + key[1]!.length };
    }
  }
  return null;
}

/** Offsets [start, end) of every place `name` is written as an input in a directive's text: declaration and placeholders. */
export function inputSpans(text: string, name: string): [number, number][] {
  const out: [number, number][] = [];
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const find of [declarations(esc), (t: string) => t.matchAll(new RegExp(String.raw`\{input:(${esc})(?=[?:|}])`, "gu")), (t: string) => t.matchAll(new RegExp(String.raw`\$\{inputs\.(${esc})\}`, "gu"))]) {
    for (const m of find(text)) {
      const s = m.index! + m[0].lastIndexOf(m[1]!);
      out.push([s, s + name.length]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Offsets of `"name":` keys in calls of `text` whose item_id is `target`. */
export function callParamSpans(text: string, target: string, name: string): [number, number][] {
  const out: [number, number][] = [];
  for (const call of text.matchAll(/rye_(?:execute|search|load|fetch|sign)\(([^`]*?)\)?(?=`|\n|$)/g)) {
    const args = call[1]!;
    if (/\bitem_id="([^"]*)"/.exec(args)?.[1] !== target) continue;
    const params = /\bparameters=\{/.exec(args);
    if (!params) continue;
    const base = call.index! + call[0].indexOf(args) + params.index;
    for (const key of args.slice(params.index).matchAll(/[{,]\s*"([\w]+)"\s*:/g)) {
      if (key[1] !== name) continue;
      const s = base + key.index! + key[0].indexOf('"') + 1;
      out.push([s, s + name.length]);
    }
  }
  return out;
}
