import { LineIndex } from "../diagnostics/diagnostic.js";

// With its default `prettyErrors`, the `yaml` package adds to every error and warning of a document
// where it is and a view of its line, each view costing the line's length: a long line of many
// errors (`&a &a &a …`, `!t !t …`) took time quadratic in its length. Parsing without them, the
// first line of that message is made here for the one error reported, as the package words it:
// "<message> at line L, column C", with ":" when a view of the line follows (the view shows "…"
// where a line over 80 characters is cut, and the line before when the error is at its line's
// first non-blank, so only a short line of blanks alone has none).

/** The first line of the message `yaml` would give, prettified, for an error at `pos` of `text`. */
export function yamlErrorLine(text: string, message: string, pos: number): string {
  // The suffix goes after the whole message, so a message of several lines keeps only its first.
  if (pos === -1 || message.includes("\n")) return message.split("\n")[0]!;
  const { line, column } = new LineIndex(text).position(pos);
  const start = pos - (column - 1);
  const nl = text.indexOf("\n", start);
  const shown = text.slice(start, nl === -1 ? text.length : nl).replace(/[\n\r]+$/, "");
  const withView = shown.length > 80 || (line > 1 && /^ *$/.test(shown.slice(0, column - 1))) || /[^ ]/.test(shown);
  return `${message} at line ${line}, column ${column}${withView ? ":" : ""}`;
}
