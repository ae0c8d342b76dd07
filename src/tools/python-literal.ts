import { PyFloat, pyStr } from "../runtime/pystr.js";
import type { PyToken } from "./python-lexer.js";
import { decodePyString } from "./python-string.js";

/**
 * A Python literal as JavaScript data: floats stay `PyFloat` so `str()` keeps `1.0`; tuples and sets
 * become arrays (sets in source order, duplicates dropped); bytes become Latin-1 strings; dict keys are
 * rendered as `json.dumps` renders them.
 */
export type PyLiteral = string | number | boolean | null | PyFloat | PyLiteral[] | { [key: string]: PyLiteral };

/** Why an expression was not taken: not a literal for `ast.literal_eval`, or one we cannot represent. */
export class LiteralProblem extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

type Kind = "int" | "float" | "complex" | "bool" | "none" | "str" | "bytes" | "ellipsis" | "tuple" | "list" | "set" | "dict";
interface Node {
  kind: Kind;
  value: PyLiteral;
  /** Identity under Python `==`/`hash` (True == 1 == 1.0), for set members and dict keys. */
  key?: string;
  start: number;
}

/** Evaluates the tokens of one expression as `ast.literal_eval` would, or throws a LiteralProblem. */
export function evaluatePyLiteral(tokens: PyToken[], endOffset: number): PyLiteral {
  const parser = new LiteralParser(tokens, endOffset);
  const node = parser.exprList();
  if (parser.peek()) throw parser.notLiteral(parser.peek()!);
  return checkRepresentable(node).value;
}

const UNREPRESENTABLE: Partial<Record<Kind, string>> = {
  complex: "complex numbers are Python literals but have no JSON form",
  ellipsis: "`...` is a Python literal but has no JSON form",
};

function checkRepresentable(node: Node): Node {
  const why = UNREPRESENTABLE[node.kind];
  if (why) throw new LiteralProblem(why, node.start);
  return node;
}

/** CPython's limit on open brackets (MAXLEVEL in its tokenizer). */
const MAX_NESTING = 200;

class LiteralParser {
  private i = 0;
  private depth = 0;
  constructor(
    private readonly tokens: PyToken[],
    private readonly endOffset: number,
  ) {}

  peek(): PyToken | undefined {
    return this.tokens[this.i];
  }

  notLiteral(token: PyToken | undefined, what = "not a literal"): LiteralProblem {
    return new LiteralProblem(`${what} (ast.literal_eval accepts only constants, lists, tuples, dicts and sets)`, token?.start ?? this.endOffset);
  }

  private isOp(text: string): boolean {
    const t = this.peek();
    return t?.type === "op" && t.text === text;
  }

  private expectOp(text: string): void {
    if (!this.isOp(text)) throw this.notLiteral(this.peek());
    this.i++;
  }

  exprList(closer?: string): Node {
    const start = this.peek()?.start ?? this.endOffset;
    const first = this.expr();
    if (!this.isOp(",")) return first;
    const items = [first];
    while (this.isOp(",")) {
      this.i++;
      if (!this.peek() || (closer && this.isOp(closer))) break;
      items.push(this.expr());
    }
    return tuple(items, start);
  }

  private expr(): Node {
    const start = this.peek();
    if (this.isOp("-") || this.isOp("+")) {
      this.i++;
      const operand = this.atom();
      if (!["int", "float", "complex"].includes(operand.kind)) throw this.notLiteral(start, "a sign applies only to a number");
      return this.binary(negate(operand, start!.text === "-", start!.start));
    }
    return this.binary(this.atom());
  }

  private binary(left: Node): Node {
    if (!this.isOp("+") && !this.isOp("-")) return left;
    const op = this.peek()!;
    this.i++;
    const right = this.atom();
    // literal_eval folds only `real ± imaginary`, the spelling of a complex constant.
    if ((left.kind === "int" || left.kind === "float") && right.kind === "complex") return { kind: "complex", value: null, start: left.start };
    throw this.notLiteral(op, "arithmetic is not a literal");
  }

  private atom(): Node {
    const t = this.peek();
    if (!t) throw this.notLiteral(t, "missing value");
    this.i++;
    if (t.type === "number") return numberNode(t);
    if (t.type === "string") return this.strings(t);
    if (t.type === "name") {
      if (t.text === "True" || t.text === "False") return { kind: "bool", value: t.text === "True", key: `n:${t.text === "True" ? 1 : 0}`, start: t.start };
      if (t.text === "None") return { kind: "none", value: null, key: "none", start: t.start };
      if (t.text === "set" && this.isOp("(") && this.tokens[this.i + 1]?.text === ")") {
        this.i += 2;
        return { kind: "set", value: [], start: t.start };
      }
      throw this.notLiteral(t, `name '${t.text}' is not a literal`);
    }
    if (t.text === "...") return { kind: "ellipsis", value: null, key: "ellipsis", start: t.start };
    if (t.text === "(" || t.text === "[" || t.text === "{") {
      // CPython's tokenizer refuses more than 200 open brackets; this parser would overflow the stack long after.
      if (++this.depth > MAX_NESTING) throw new LiteralProblem("too many nested parentheses", t.start);
      const node = this.bracketed(t);
      this.depth--;
      return node;
    }
    throw this.notLiteral(t);
  }

  private bracketed(t: PyToken): Node {
    if (t.text === "[") return { kind: "list", value: this.sequence("]").map((n) => checkRepresentable(n).value), start: t.start };
    if (t.text === "{") return this.braces(t.start);
    if (this.isOp(")")) return (this.i++, tuple([], t.start));
    const inner = this.exprList(")");
    this.expectOp(")");
    return inner;
  }

  private strings(first: PyToken): Node {
    let kind: "str" | "bytes" | undefined;
    let value = "";
    for (let t: PyToken | undefined = first; t?.type === "string"; t = this.peek()) {
      if (t !== first) this.i++;
      const decoded = decodePyString(t.text);
      if (decoded.kind === "fstring") throw this.notLiteral(t, "an f-string is not a literal");
      if (decoded.kind === "invalid") throw new LiteralProblem(decoded.problem, t.start);
      if (kind && kind !== decoded.kind) throw new LiteralProblem("cannot mix bytes and nonbytes literals", t.start);
      kind = decoded.kind;
      value += decoded.value;
    }
    return { kind: kind!, value, key: `${kind === "str" ? "s" : "b"}:${value}`, start: first.start };
  }

  private sequence(closer: string): Node[] {
    const items: Node[] = [];
    while (!this.isOp(closer)) {
      if (this.isOp("*") || this.isOp("**")) throw this.notLiteral(this.peek(), "unpacking is not a literal");
      items.push(this.expr());
      if (!this.isOp(",")) break;
      this.i++;
    }
    this.expectOp(closer);
    return items;
  }

  private braces(start: number): Node {
    if (this.isOp("}")) return (this.i++, { kind: "dict", value: {}, start });
    const save = this.i;
    if (!this.isOp("**")) {
      this.expr();
      if (!this.isOp(":")) {
        this.i = save;
        return setNode(this.sequence("}"), start);
      }
    }
    this.i = save;
    const out: { [key: string]: PyLiteral } = {};
    const seen = new Map<string, string>();
    while (!this.isOp("}")) {
      if (this.isOp("**")) throw this.notLiteral(this.peek(), "unpacking is not a literal");
      const key = this.expr();
      this.expectOp(":");
      const value = checkRepresentable(this.expr());
      const id = hashKey(key);
      const name = seen.get(id) ?? dictKeyName(key);
      seen.set(id, name);
      Object.defineProperty(out, name, { value: value.value, enumerable: true, writable: true, configurable: true });
      if (!this.isOp(",")) break;
      this.i++;
    }
    this.expectOp("}");
    return { kind: "dict", value: out, start };
  }
}

function numberNode(t: PyToken): Node {
  const text = t.text.replace(/_/g, "");
  if (/[jJ]$/.test(text)) return { kind: "complex", value: null, start: t.start };
  if (/^0[xob]/i.test(text) || !/[.eE]/.test(text)) {
    const big = BigInt(text);
    if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new LiteralProblem(`integer ${t.text} is too large to represent exactly`, t.start);
    return { kind: "int", value: Number(big), key: `n:${big}`, start: t.start };
  }
  const value = Number(text);
  return { kind: "float", value: new PyFloat(value), key: `n:${Number.isInteger(value) ? BigInt(value) : value}`, start: t.start };
}

function negate(node: Node, minus: boolean, start: number): Node {
  if (!minus || node.kind === "complex") return { ...node, start };
  if (node.kind === "int") return { ...node, value: 0 - (node.value as number), key: `n:${0 - (node.value as number)}`, start };
  const value = -(node.value as PyFloat).value;
  return { ...node, value: new PyFloat(value), key: `n:${Number.isInteger(value) ? BigInt(value) : value}`, start };
}

function tuple(items: Node[], start: number): Node {
  const hashable = items.every((n) => n.key !== undefined);
  return {
    kind: "tuple",
    value: items.map((n) => checkRepresentable(n).value),
    key: hashable ? `t:${JSON.stringify(items.map((n) => n.key))}` : undefined,
    start,
  };
}

function setNode(items: Node[], start: number): Node {
  const seen = new Set<string>();
  const value: PyLiteral[] = [];
  for (const item of items) {
    const id = hashKey(item);
    if (!seen.has(id)) value.push(checkRepresentable(item).value);
    seen.add(id);
  }
  return { kind: "set", value, start };
}

function hashKey(node: Node): string {
  if (node.key === undefined) throw new LiteralProblem(`unhashable type: '${node.kind}'`, node.start);
  return node.key;
}

function dictKeyName(node: Node): string {
  switch (node.kind) {
    case "str":
    case "bytes":
      return node.value as string;
    case "int":
      return String(node.value);
    case "float":
      return pyStr(node.value);
    case "bool":
      return node.value ? "true" : "false";
    case "none":
      return "null";
    default:
      throw new LiteralProblem(`a dict key of type ${node.kind} has no JSON form`, node.start);
  }
}
