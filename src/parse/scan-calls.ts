import { parse } from "./generated/calls.js";
import { parseSimpleCall } from "./call-simple.js";

// grammar/calls.peggy reads a body as (Call / BrokenCall / Skip)*: prose up to a backtick is skipped,
// and at each backtick a call is tried, else the backtick is skipped. Running that over a whole body
// tests every prose character in Peggy; here prose is skipped with indexOf and the grammar's own Call
// and BrokenCall rules run only at backticks that can start one, from that offset in the body.

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
    // Most calls are read without the grammar (call-simple.ts); it decides the rest and the broken ones.
    const simple = CALL_START.test(text) ? parseSimpleCall(text, pos) : undefined;
    if (simple) {
      out.push(simple.call as T);
      next = simple.end;
    } else if (simple === null) {
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
