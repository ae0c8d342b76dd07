import * as d from "../../diagnostics/codes.js";
import type { ParsedDirective } from "../../parse/parse-directive.js";
import { didYouMean } from "../../runtime/did-you-mean.js";
import type { CheckContext } from "./context.js";

// `{kind:name…}` where kind is one edit away from `input`, or `env` in another case. The original's
// passes match `{input:` and `{env:` exactly, so such text reaches the prompt unchanged.
const CANDIDATE = /\{([A-Za-z]{2,8}):([\p{L}\p{N}_]+)(\?|[:|][^}\n]*)?\}/gu;

interface NearMiss {
  raw: string;
  fixed: string;
  name: string;
  start: number;
}

// A kind other than `input` and `env`: what every candidate needs. Nearly every file has only those
// two, and this one scan then answers (it was the costliest check of a 1k build).
const OTHER_KIND = /\{(?!(?:input|env):)[A-Za-z]{2,8}:/;

// Two checks ask about the same file in turn: the last answer is kept.
let last: { text: string; misses: NearMiss[] } = { text: "", misses: [] };

function nearMisses(text: string): NearMiss[] {
  if (last.text !== text) last = { text, misses: OTHER_KIND.test(text) ? scanNearMisses(text) : [] };
  return last.misses;
}

// No match holds a `\n` and each ends in `}`: each line is searched up to its last `}`, where every
// `[^}\n]*` run stops at a `}` that completes its match, so no run is read again from the next opener.
function* candidates(text: string): Generator<RegExpMatchArray> {
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    const close = text.lastIndexOf("}", end - 1);
    if (close >= start) {
      for (const m of text.slice(start, close + 1).matchAll(CANDIDATE)) {
        m.index! += start;
        yield m;
      }
    }
    start = end + 1;
  }
}

function scanNearMisses(text: string): NearMiss[] {
  const out: NearMiss[] = [];
  for (const m of candidates(text)) {
    const kind = m[1]!;
    if (kind === "input" || kind === "env") continue;
    const real = kind.toLowerCase() === "env" ? "env" : didYouMean(kind, ["input"], 1);
    if (!real) continue;
    out.push({ raw: m[0], fixed: `{${real}:${m[0].slice(kind.length + 2)}`, name: m[2]!, start: m.index! });
  }
  return out;
}

/** Inputs named by a near-miss `{inptu:x}`: that is the use the author meant, so `x` is not also unused. */
export function nearMissInputNames(parsed: ParsedDirective): string[] {
  return nearMisses(parsed.file.text).filter((n) => n.fixed.startsWith("{input:")).map((n) => n.name);
}

export function reportMisspeltKinds({ parsed, bag }: CheckContext): void {
  for (const n of nearMisses(parsed.file.text)) {
    bag.add(d.misspeltPlaceholderKind(parsed.lines.location(parsed.source, n.start, n.start + n.raw.length), n.raw, n.fixed));
  }
}
