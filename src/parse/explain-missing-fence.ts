// When no metadata fence is found, "no fence" alone sends the user hunting. The common causes are
// an empty file, a fence that is never closed, a fence hidden by the original's four-backtick
// rule (grammar/directive.peggy), a byte-order mark in front of a fence on line 1, and a fence
// whose language is not written in lower case. This finds which, and where.

const BLANK = "[\\t\\x0b\\x0c\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*";
const QUAD_CLOSER = new RegExp(`^\`{4,}${BLANK}$`, "u");

export interface MissingFence {
  /** Offset the diagnostic should point at. */
  offset: number;
  /** A sentence saying why no fence was found. */
  hint: string;
}

/** Why `text` (LF line endings) has no usable ```lang fence, when a reason can be named. */
export function explainMissingFence(text: string, lang: "xml" | "yaml"): MissingFence | null {
  if (text.trim() === "") return { offset: 0, hint: "the file is empty" };
  const opener = new RegExp(`^\`\`\`${lang}${BLANK}$`, "u");
  if (text.startsWith("\ufeff") && opener.test(text.slice(1, lineEnd(text, 0)))) {
    return { offset: 0, hint: `the file starts with a byte-order mark (U+FEFF), which hides the \`\`\`${lang} fence on line 1 as it does in the original; save the file as UTF-8 without BOM` };
  }
  let quadOpeners = 0;
  let quadClosers = 0;
  let lastQuad = -1;
  let lineNo = 0;
  for (let start = 0; start <= text.length; ) {
    const end = lineEnd(text, start);
    const line = text.slice(start, end);
    lineNo++;
    if (opener.test(line)) {
      if (quadOpeners > quadClosers) {
        return {
          offset: start,
          hint: `this \`\`\`${lang} fence is skipped because the line starting with four backticks on line ${lineOf(text, lastQuad)} is not matched by as many lines made only of backticks (the original treats every later fence as nested)`,
        };
      }
      return { offset: start, hint: `the \`\`\`${lang} fence opened here is never closed by a \`\`\` line` };
    }
    if (line.startsWith("````")) {
      quadOpeners++;
      lastQuad = start;
      if (QUAD_CLOSER.test(line)) quadClosers++;
    }
    if (end >= text.length) break;
    start = end + 1;
  }
  const loose = new RegExp(`^\`\`\`\\s*${lang}\\b`, "imu").exec(text);
  if (loose) return { offset: loose.index, hint: `a fence must start with exactly \`\`\`${lang} (lower case, no space) and nothing after it on the line` };
  return null;
}

function lineEnd(text: string, start: number): number {
  const i = text.indexOf("\n", start);
  return i === -1 ? text.length : i;
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
