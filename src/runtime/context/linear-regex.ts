// Hook conditions' `op: regex`, matched in time linear in the input. A pattern comes from a project's
// config and the text from the caller, so a backtracking engine (V8's) would let `^(a+)+$` on forty
// characters stop a render, a preview or the language server. Here a pattern is parsed into a small
// automaton and run as a set of states over the input (a Pike VM without captures): each character
// is looked at once per state, so the time is at most input length × MAX_STATES, whatever the pattern.
// Only constructs an automaton can follow are accepted: no backreferences, no lookaround. Everything
// that matches a single character (classes, escapes, `\p{…}`) is still decided by V8 itself, with
// the pattern's own syntax, so what matches is what `new RegExp(pattern, "u").test()` would say.

/** The most automaton states a pattern may compile to (each repetition `{n,m}` counts its copies). */
export const MAX_STATES = 1000;
/** The most groups a pattern may nest; the parser recurses once per group. */
export const MAX_GROUP_DEPTH = 32;

/** A pattern that is refused, with why (for a located diagnostic at build, an error at run time). */
export class UnsafeRegex extends Error {}

type Node =
  | { t: "char"; test: (c: string) => boolean }
  | { t: "assert"; kind: "^" | "$" | "b" | "B" }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; options: Node[] }
  | { t: "rep"; node: Node; min: number; max: number };

type Inst = { op: "char"; test: (c: string) => boolean; next: number } | { op: "split"; a: number; b: number } | { op: "jmp"; to: number } | { op: "assert"; kind: "^" | "$" | "b" | "B"; next: number } | { op: "match" };

/** Why `pattern` cannot be matched in linear time (or is no JavaScript pattern at all), or null. */
export function regexProblem(pattern: string): string | null {
  try {
    compileLinear(pattern);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** A matcher with `RegExp.prototype.test`'s answer for the `u` flag; throws UnsafeRegex when refused. */
export function compileLinear(pattern: string): { test: (text: string) => boolean } {
  try {
    new RegExp(pattern, "u");
  } catch (e) {
    throw new UnsafeRegex(`it is not a valid JavaScript regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, "")})`);
  }
  const parser = new Parser(pattern);
  const node = parser.alternation(0);
  const prog: Inst[] = [];
  emit(node, prog);
  prog.push({ op: "match" });
  return { test: (text) => run(prog, text) };
}

// Sticky: each is tried exactly at the parser's position, so parsing stays linear in the pattern.
const QUANTIFIER = /(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/y;
const NAMED_GROUP = /\(\?<[^>]*>/y;
const BRACED_ESCAPE = /\\[pPu]\{[^}]*\}/y;
const SURROGATE_PAIR = /\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/y;

/** `re` tried exactly at `at` in `text`. */
function stickyAt(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

class Parser {
  private i = 0;

  constructor(private readonly src: string) {}

  alternation(depth: number): Node {
    if (depth > MAX_GROUP_DEPTH) throw new UnsafeRegex(`it nests groups more than ${MAX_GROUP_DEPTH} deep`);
    const options: Node[] = [this.sequence(depth)];
    while (this.src[this.i] === "|") {
      this.i++;
      options.push(this.sequence(depth));
    }
    return options.length === 1 ? options[0]! : { t: "alt", options };
  }

  private sequence(depth: number): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== "|" && this.src[this.i] !== ")") items.push(this.quantified(this.atom(depth)));
    return { t: "seq", items };
  }

  private quantified(node: Node): Node {
    const m = stickyAt(QUANTIFIER, this.src, this.i);
    if (!m) return node;
    this.i += m[0].length;
    if (m[1]) return { t: "rep", node, min: m[1] === "+" ? 1 : 0, max: m[1] === "?" ? 1 : Infinity };
    const min = Number(m[2]);
    const max = m[3] === undefined ? min : m[4] === "" ? Infinity : Number(m[4]);
    return { t: "rep", node, min, max };
  }

  private atom(depth: number): Node {
    const c = this.src[this.i]!;
    if (c === "(") return this.group(depth);
    if (c === "^" || c === "$") return this.i++, { t: "assert", kind: c };
    if (c === "[") return this.single(this.classEnd());
    if (c === "\\") return this.escape();
    if (c === ".") return this.single(this.i + 1);
    const cp = String.fromCodePoint(this.src.codePointAt(this.i)!);
    this.i += cp.length;
    return { t: "char", test: (x) => x === cp };
  }

  private group(depth: number): Node {
    const rest = this.src.slice(this.i, this.i + 4);
    if (/^\(\?<?[=!]/.test(rest)) throw new UnsafeRegex("it uses a lookahead or lookbehind ((?=, (?!, (?<=, (?<!), which a linear-time matcher cannot follow");
    const named = stickyAt(NAMED_GROUP, this.src, this.i);
    // Any other `(?` (inline modifiers such as `(?i:…)`, which newer engines accept) is refused, not misread.
    if (!named && rest.startsWith("(?") && !rest.startsWith("(?:")) throw new UnsafeRegex(`it uses a group form (${rest.slice(0, 3)}…) the linear-time matcher does not follow`);
    this.i += named ? named[0].length : rest.startsWith("(?:") ? 3 : 1;
    const node = this.alternation(depth + 1);
    this.i++; // the `)`: the pattern compiled as a RegExp, so every group is closed
    return node;
  }

  private escape(): Node {
    const next = this.src[this.i + 1]!;
    if (/[1-9]/.test(next) || next === "k") throw new UnsafeRegex("it uses a backreference (\\1, \\k<name>), which no linear-time matcher can follow");
    if (next === "b" || next === "B") return (this.i += 2), { t: "assert", kind: next };
    const braced = stickyAt(BRACED_ESCAPE, this.src, this.i);
    if (braced) return this.single(this.i + braced[0].length);
    const pair = stickyAt(SURROGATE_PAIR, this.src, this.i);
    const len = pair ? 12 : next === "u" ? 6 : next === "x" ? 4 : next === "c" ? 3 : 1 + String.fromCodePoint(this.src.codePointAt(this.i + 1)!).length;
    return this.single(this.i + len);
  }

  /** The index just past the `]` that closes the class starting here (`\]` and `\\` inside it skipped). */
  private classEnd(): number {
    let j = this.i + 1;
    while (this.src[j] !== "]") j += this.src[j] === "\\" ? 2 : 1;
    return j + 1;
  }

  /** The source from here to `end` as one character's test, decided by V8 with the same syntax. */
  private single(end: number): Node {
    const source = this.src.slice(this.i, end);
    this.i = end;
    const re = new RegExp(`^(?:${source})$`, "u");
    const seen = new Map<string, boolean>();
    return {
      t: "char",
      test: (x) => {
        let hit = seen.get(x);
        if (hit === undefined && seen.size < 4096) seen.set(x, (hit = re.test(x)));
        return hit ?? re.test(x);
      },
    };
  }
}

/** Appends `node`'s instructions (Thompson's construction); refused once the program grows past MAX_STATES. */
function emit(node: Node, prog: Inst[]): void {
  if (prog.length > MAX_STATES) throw new UnsafeRegex(`it compiles to more than ${MAX_STATES} states (long repetitions such as {500} count each copy)`);
  if (node.t === "char") prog.push({ op: "char", test: node.test, next: prog.length + 1 });
  else if (node.t === "assert") prog.push({ op: "assert", kind: node.kind, next: prog.length + 1 });
  else if (node.t === "seq") for (const item of node.items) emit(item, prog);
  else if (node.t === "alt") {
    const jumps: Inst[] = [];
    node.options.forEach((option, k) => {
      const last = k === node.options.length - 1;
      const split = { op: "split", a: prog.length + 1, b: 0 } as Inst & { op: "split" };
      if (!last) prog.push(split);
      emit(option, prog);
      if (!last) {
        const jmp = { op: "jmp", to: 0 } as Inst & { op: "jmp" };
        jumps.push(jmp);
        prog.push(jmp);
        split.b = prog.length;
      }
    });
    for (const j of jumps) (j as { to: number }).to = prog.length;
  } else emitRepeat(node, prog);
}

function emitRepeat(node: Node & { t: "rep" }, prog: Inst[]): void {
  // Checked before copying: copies of an empty group add no state, so the growth check alone would not stop them.
  if (node.min > MAX_STATES || (node.max !== Infinity && node.max > MAX_STATES)) throw new UnsafeRegex(`it repeats a part more than ${MAX_STATES} times`);
  for (let k = 0; k < node.min; k++) emit(node.node, prog);
  if (node.max === Infinity) {
    const split = { op: "split", a: prog.length + 1, b: 0 } as Inst & { op: "split" };
    const top = prog.length;
    prog.push(split);
    emit(node.node, prog);
    prog.push({ op: "jmp", to: top });
    split.b = prog.length;
    return;
  }
  const splits: (Inst & { op: "split" })[] = [];
  for (let k = node.min; k < node.max; k++) {
    const split = { op: "split", a: prog.length + 1, b: 0 } as Inst & { op: "split" };
    splits.push(split);
    prog.push(split);
    emit(node.node, prog);
  }
  for (const s of splits) s.b = prog.length;
}

const isWord = (c: string | undefined) => c !== undefined && /^[A-Za-z0-9_]$/.test(c);

/** Whether the program matches anywhere in `text`: every state advanced one code point at a time. */
function run(prog: Inst[], text: string): boolean {
  const mark = new Int32Array(prog.length).fill(-1);
  let gen = 0;
  let prev: string | undefined;
  let current: number[] = [];
  for (let pos = 0; ; ) {
    const cp = text.codePointAt(pos);
    const here = cp === undefined ? undefined : String.fromCodePoint(cp);
    // A match may start at any position, as RegExp.prototype.test searches.
    const states = closure(prog, [...current, 0], mark, ++gen, { prev, here, start: pos === 0, end: here === undefined });
    if (states.matched) return true;
    if (here === undefined) return false;
    current = [];
    for (const s of states.chars) {
      const inst = prog[s] as Inst & { op: "char" };
      if (inst.test(here)) current.push(inst.next);
    }
    prev = here;
    pos += here.length;
  }
}

/** The char states reachable from `from` without reading (assertions decided here), and whether one is the match. */
function closure(prog: Inst[], from: number[], mark: Int32Array, gen: number, at: { prev?: string; here?: string; start: boolean; end: boolean }) {
  const chars: number[] = [];
  const stack = from.reverse();
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (mark[s] === gen) continue;
    mark[s] = gen;
    const inst = prog[s]!;
    if (inst.op === "match") return { matched: true, chars };
    if (inst.op === "char") chars.push(s);
    else if (inst.op === "jmp") stack.push(inst.to);
    else if (inst.op === "split") stack.push(inst.b, inst.a);
    else if (holds(inst.kind, at)) stack.push(inst.next);
  }
  return { matched: false, chars };
}

function holds(kind: "^" | "$" | "b" | "B", at: { prev?: string; here?: string; start: boolean; end: boolean }): boolean {
  if (kind === "^") return at.start;
  if (kind === "$") return at.end;
  const boundary = isWord(at.prev) !== isWord(at.here);
  return kind === "b" ? boundary : !boundary;
}
