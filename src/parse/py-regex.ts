/** Python's `\s` for str patterns (str.isspace()), as a regex class body; JS `\s` differs. */
export const PY_WS = "\\t\\n\\x0b\\x0c\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/** `re.match(r"<directive\s+([^>]*)>", xml)`: the opening tag's attribute text, if the XML starts with it. */
export const DIRECTIVE_OPEN = new RegExp(`^<directive[${PY_WS}]+([^>]*)>`);

/** `re.search(r'KEY\s*=\s*["\']([^"\']+)["\']', attrs)`; like the original it also hits `rename=` etc. */
export function attrByRegex(attrs: string, key: string): string | undefined {
  return new RegExp(`${key}[${PY_WS}]*=[${PY_WS}]*["']([^"']+)["']`).exec(attrs)?.[1];
}
