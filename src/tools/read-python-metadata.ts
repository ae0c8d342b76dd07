import { LineIndex, type Position } from "../diagnostics/diagnostic.js";
import { pyStrip } from "../runtime/pystr.js";
import { PyLexError, tokenizePython, type PyToken } from "./python-lexer.js";
import { evaluatePyLiteral, LiteralProblem, type PyLiteral } from "./python-literal.js";
import { pyDocstringValue } from "./python-string.js";

/** A start/end pair inside one file. */
export interface Span {
  start: Position;
  end: Position;
}

/** A module-level `NAME = value` statement: evaluated, or skipped with the reason. */
export interface PyAssignment {
  name: string;
  nameSpan: Span;
  valueSpan: Span;
  value?: PyLiteral;
  skipped?: string;
}

/** What the original `python/ast` parser yields, plus where each value came from. */
export interface PythonMetadata {
  /** Module-level literal assignments (later ones win) and `__docstring__`; empty when `error` is set. */
  values: Record<string, PyLiteral>;
  assignments: PyAssignment[];
  /** Where each key of `values` was assigned. */
  spans: Record<string, Span>;
  /** A lexical error: the original gets a SyntaxError and uses no metadata from the file. */
  error?: { message: string; span: Span };
}

const COMPOUND = new Set(["if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def", "class", "async"]);
const KEYWORDS = new Set([
  ...COMPOUND,
  ...["False", "None", "True", "and", "as", "assert", "await", "break", "continue", "del", "from", "global"],
  ...["import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "while", "yield"],
]);

/**
 * Reads the module-level `NAME = <literal>` assignments and the leading docstring of a Python file,
 * as the original `ast.parse` + `ast.literal_eval` parser does, without running Python.
 * Only lexical errors are detected; other Python syntax errors are not.
 */
export function readPythonMetadata(text: string): PythonMetadata {
  const index = new LineIndex(text);
  const span = (start: number, end: number): Span => ({ start: index.position(start), end: index.position(end) });
  const result: PythonMetadata = { values: {}, assignments: [], spans: {} };
  let lines;
  try {
    if (text.charCodeAt(0) === 0xfeff) throw new PyLexError("invalid non-printable character U+FEFF", 0);
    lines = tokenizePython(text);
    checkIndentation(lines);
  } catch (e) {
    if (!(e instanceof PyLexError)) throw e;
    return { ...result, error: { message: `Syntax error: ${e.message}`, span: span(e.offset, e.offset) } };
  }
  let docstring: { value: string; span: Span } | undefined;
  lines.forEach((line, lineNo) => {
    if (line.indent > 0 || COMPOUND.has(line.tokens[0]!.text) || line.tokens[0]!.text === "@") return;
    splitTopLevel(line.tokens, ";").forEach((statement, statementNo) => {
      if (statement.length === 0) return;
      const end = statement.at(-1)!.end;
      if (lineNo === 0 && statementNo === 0) {
        const doc = pyDocstringValue(statement);
        if (doc !== undefined) docstring = { value: pyStrip(doc), span: span(statement[0]!.start, end) };
      }
      const parts = splitTopLevel(statement, "=");
      const annotated = parts.length === 2 && parts[0]![1]?.text === ":" ? parts[0]![0] : undefined;
      const target = parts.length >= 2 ? (targetName(parts[0]!) ?? annotated) : undefined;
      if (!target || target.type !== "name") return;
      const valueTokens = parts[parts.length - 1]!;
      const assignment: PyAssignment = {
        name: target.text,
        nameSpan: span(target.start, target.end),
        valueSpan: span(valueTokens[0]?.start ?? end, end),
      };
      result.assignments.push(assignment);
      if (target === annotated) {
        assignment.skipped = "an annotated assignment (`NAME: type = …`) is skipped by the original";
        return;
      }
      if (parts.length > 2) {
        assignment.skipped = "an assignment with several targets (`A = B = …`) is skipped by the original";
        return;
      }
      try {
        assignment.value = evaluatePyLiteral(valueTokens, end);
        setValue(result.values, target.text, assignment.value);
        result.spans[target.text] = assignment.valueSpan;
      } catch (e) {
        if (!(e instanceof LiteralProblem)) throw e;
        assignment.skipped = e.message;
      }
    });
  });
  if (docstring) {
    setValue(result.values, "__docstring__", docstring.value);
    result.spans.__docstring__ = docstring.span;
  }
  return result;
}

function setValue(target: Record<string, PyLiteral>, key: string, value: PyLiteral): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The assigned name when the target is a bare (possibly parenthesised) identifier. */
function targetName(tokens: PyToken[]): PyToken | undefined {
  let from = 0;
  let to = tokens.length;
  while (to - from >= 3 && tokens[from]!.text === "(" && tokens[to - 1]!.text === ")") [from, to] = [from + 1, to - 1];
  const only = to - from === 1 ? tokens[from] : undefined;
  return only?.type === "name" && !KEYWORDS.has(only.text) ? only : undefined;
}

/** Splits tokens on an operator at bracket depth 0. */
function splitTopLevel(tokens: PyToken[], separator: string): PyToken[][] {
  const parts: PyToken[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (t.type === "op") {
      if ("([{".includes(t.text)) depth++;
      else if (")]}".includes(t.text)) depth--;
      else if (depth === 0 && t.text === separator) {
        parts.push([]);
        continue;
      }
    }
    parts.at(-1)!.push(t);
  }
  return parts;
}

/** Python rejects an indented first line, or an indented line that follows no block header. */
function checkIndentation(lines: { indent: number; tokens: PyToken[] }[]): void {
  lines.forEach((line, i) => {
    const previous = i === 0 ? undefined : lines[i - 1]!;
    if (line.indent > (previous?.indent ?? 0) && previous?.tokens.at(-1)?.text !== ":") {
      throw new PyLexError("unexpected indent", line.tokens[0]!.start);
    }
  });
}
