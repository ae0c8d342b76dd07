// The members of a JSON object with where each key and value lies, for located config diagnostics.
// It reads text that JSON.parse has already accepted, so it only has to find where values end; a
// general parser (the yaml package) would cost every no-op build its load time for this.

/** A JSON value: its kind and its [start, end) offsets in the text. */
export interface JsonSpan {
  kind: "object" | "array" | "string" | "number" | "literal";
  start: number;
  end: number;
}

export interface JsonMember {
  key: string;
  keySpan: JsonSpan;
  value: JsonSpan;
}

const SPACE = /[ \t\n\r]*/y;

function skipSpace(text: string, at: number): number {
  SPACE.lastIndex = at;
  SPACE.test(text);
  return SPACE.lastIndex;
}

/** The end of the string starting at `at` (its opening quote). */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** The value starting at `at` (no leading space). */
export function spanAt(text: string, at: number): JsonSpan {
  const c = text[at];
  if (c === '"') return { kind: "string", start: at, end: stringEnd(text, at) };
  if (c === "{" || c === "[") {
    const close = c === "{" ? "}" : "]";
    let i = skipSpace(text, at + 1);
    while (text[i] !== close) {
      i = skipSpace(text, spanAt(text, i).end);
      if (text[i] === ":") i = skipSpace(text, spanAt(text, skipSpace(text, i + 1)).end);
      if (text[i] === ",") i = skipSpace(text, i + 1);
    }
    return { kind: c === "{" ? "object" : "array", start: at, end: i + 1 };
  }
  let i = at;
  while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
  return { kind: /[-0-9]/.test(c ?? "") ? "number" : "literal", start: at, end: i };
}

/** The root value of `text` (valid JSON). */
export function rootSpan(text: string): JsonSpan {
  return spanAt(text, skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0));
}

/** The members of the object `span`, in order. */
export function membersOf(text: string, span: JsonSpan): JsonMember[] {
  const out: JsonMember[] = [];
  if (span.kind !== "object") return out;
  let i = skipSpace(text, span.start + 1);
  while (text[i] === '"') {
    const keySpan = spanAt(text, i);
    const value = spanAt(text, skipSpace(text, skipSpace(text, keySpan.end) + 1));
    out.push({ key: JSON.parse(text.slice(keySpan.start, keySpan.end)) as string, keySpan, value });
    i = skipSpace(text, value.end);
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  return out;
}

/** The value of a span, parsed. */
export const valueOf = (text: string, span: JsonSpan): unknown => JSON.parse(text.slice(span.start, span.end));
