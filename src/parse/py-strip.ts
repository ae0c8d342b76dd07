import { isPyWhitespace } from "../runtime/pystr.js";

/** Bounds of `text.slice(start, end)` after Python's `.strip()`, without copying the string. */
export function pyStripBounds(text: string, start: number, end: number): [number, number] {
  while (start < end && isPyWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(text.charCodeAt(end - 1))) end--;
  return [start, end];
}
