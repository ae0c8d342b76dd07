import { parse } from "./generated/calls.js";

// grammar/calls.peggy reads a body as (Call / BrokenCall / Skip)*: prose up to a backtick is skipped,
// and at each backtick a call is tried, else the backtick is skipped. Running that over a whole body
// tests every prose character in Peggy; here prose is skipped with indexOf and the grammar's own Call
// and BrokenCall rules run only at backticks that can start one, from that offset in the body.

/**
 * Deepest nesting of dicts and lists in a call's arguments (RYE1008), as upstream ryeos bounds its
 * AST at 128 levels: the grammar, the analysis and the emitted module's literal all recurse once per
 * level, and a literal thousands deep compiled in one thread, overflowed in another and, emitted,
 * made a module V8 cannot parse. Real calls nest two or three levels.
 */
export const MAX_CALL_DEPTH = 128;

/** A call whose arguments nest deeper than MAX_CALL_DEPTH: `at` is the bracket that opens the level past it. */
export interface DeepCall {
  type: "deep_call";
  name: string;
  start: number;
  end: number;
  at: number;
}

/** Both call rules begin with a backtick, blanks and a callee; nothing else can start one. */
const CALL_START = /`[ \t\n\r]*rye_(?:execute|search|load|fetch|sign)(?![A-Za-z0-9_])/y;

interface LibraryResult {
  peg$result: unknown;
  peg$currPos: number;
  peg$FAILED: unknown;
}

/** Where the Call rule gives up on a call starting at `pos` that does not parse: the first character no rule accepts. */
export function callFailurePosition(text: string, pos: number): number {
  // Only a parse that reports its failures tracks how far it got; broken calls are rare.
  const r = parse(text, { startRule: "Call", peg$library: true, peg$currPos: pos, peg$silentFails: 0 }) as LibraryResult & { peg$maxFailPos: number };
  return r.peg$maxFailPos;
}

/** The backtick calls of `text` as the grammar's `Calls` start rule returns them. */
export function scanCalls<T>(text: string): T[] {
  const out: T[] = [];
  let pos = text.indexOf("`");
  while (pos !== -1) {
    CALL_START.lastIndex = pos;
    let next = pos + 1;
    const isCall = CALL_START.test(text);
    const deep = isCall ? tooDeep(text, pos, CALL_START.lastIndex) : null;
    if (deep) {
      out.push(deep as T);
      next = deep.end;
    } else if (isCall) {
      for (const startRule of ["Call", "BrokenCall"] as const) {
        // Library mode parses a prefix from the given offset; silent: failures here are not errors.
        const r = parse(text, { startRule, peg$library: true, peg$currPos: pos, peg$silentFails: 1 }) as LibraryResult;
        if (r.peg$result !== r.peg$FAILED) {
          out.push(r.peg$result as T);
          next = r.peg$currPos;
          break;
        }
      }
    }
    pos = text.indexOf("`", next);
  }
  return out;
}

/**
 * The call starting at the backtick at `pos` when its arguments nest deeper than MAX_CALL_DEPTH,
 * else null: a linear scan to the closing backtick (no call can hold one). Brackets inside strings
 * count too: the scan cannot then be misled by quotes inside `<prose>`, and a call that needs more
 * than 128 unclosed brackets in its strings does not exist.
 */
export function tooDeep(text: string, pos: number, calleeEnd: number, max = MAX_CALL_DEPTH): DeepCall | null {
  const close = text.indexOf("`", calleeEnd);
  const end = close === -1 ? text.length : close + 1;
  let depth = 0;
  for (let i = calleeEnd; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return { type: "deep_call", name: text.slice(pos, calleeEnd).replace(/^`\s*/, ""), start: pos, end, at: i };
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth = Math.max(0, depth - 1);
  }
  return null;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
