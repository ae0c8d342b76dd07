// grammar/directive.peggy specifies how a markdown item splits into marker lines, preamble, fence
// and body. It is line-based, but Peggy tests each character of each line; this is the same
// procedure over whole lines, checked against the grammar by test/parse/scan-layout.test.ts.

export interface RawSpan {
  text: string;
  start: number;
  end: number;
}

export interface RawLayout {
  markers: RawSpan[];
  fence: { open: { start: number; end: number }; inner: RawSpan; close: { start: number; end: number } } | null;
}

const PY_BLANK = String.raw`[\t\x0b\x0c\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]`;
// The grammar's ("rye" / "ryeos" / "kiwi-mcp") ":" never matches "ryeos:" ("rye" wins, then ":" fails).
const MARKER = new RegExp(String.raw`<!--${PY_BLANK}*(?:rye|kiwi-mcp):[^\n]*`, "y");
const OPENER = new RegExp(String.raw`\`\`\`([a-z]+)${PY_BLANK}*(?:\n|$)`, "y");
const CLOSER = new RegExp(String.raw`\`\`\`${PY_BLANK}*(?:\n|$)`, "y");
const QUAD_CLOSER = new RegExp(String.raw`^\`{4,}${PY_BLANK}*$`);

/** The end of the line starting at `pos`, past its newline. */
function lineEnd(text: string, pos: number): number {
  const nl = text.indexOf("\n", pos);
  return nl === -1 ? text.length : nl + 1;
}

function matchAt(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

/** Markers and the metadata fence of `text` (LF line endings), as the grammar's `File` rule finds them. */
export function scanLayout(text: string, lang: string): RawLayout {
  const markers: RawSpan[] = [];
  let pos = 0;
  for (let m = matchAt(MARKER, text, 0); m; m = matchAt(MARKER, text, pos)) {
    markers.push({ text: m[0], start: pos, end: pos + m[0].length });
    pos += m[0].length + (text[pos + m[0].length] === "\n" ? 1 : 0);
  }
  // Preamble: whole lines up to the first opener of `lang` not hidden by an open ````-block.
  let quadOpeners = 0;
  let quadClosers = 0;
  let open: RegExpExecArray | null = null;
  while (pos < text.length) {
    open = matchAt(OPENER, text, pos);
    if (open && open[1] === lang && quadOpeners <= quadClosers) break;
    open = null;
    const end = lineEnd(text, pos);
    if (text.startsWith("````", pos)) {
      quadOpeners++;
      if (QUAD_CLOSER.test(text.slice(pos, text[end - 1] === "\n" ? end - 1 : end))) quadClosers++;
    }
    pos = end;
  }
  if (!open) return { markers, fence: null };
  const openEnd = pos + open[0].length;
  for (let at = openEnd; at < text.length; at = lineEnd(text, at)) {
    const close = matchAt(CLOSER, text, at);
    if (close) {
      return {
        markers,
        fence: { open: { start: pos, end: openEnd }, inner: { text: text.slice(openEnd, at), start: openEnd, end: at }, close: { start: at, end: at + close[0].length } },
      };
    }
  }
  return { markers, fence: null };
}
