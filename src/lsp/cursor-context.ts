// What the text just before the cursor is in the middle of, for completion: each pattern is one of
// the places a name of something known can be typed.

/** A place where completion can offer names, with the part of the name already typed. */
export type CursorContext =
  | { kind: "input"; prefix: string }
  | { kind: "extends"; prefix: string }
  | { kind: "context"; prefix: string }
  | { kind: "call-id"; itemType: string | null; prefix: string }
  | { kind: "call-param"; itemType: string | null; target: string; prefix: string }
  | { kind: "permission"; prefix: string }
  | { kind: "input-type"; prefix: string }
  | { kind: "tool-param"; prefix: string }
  | { kind: "tool-env"; prefix: string };

const ID = String.raw`[^"\s]*`;
const CALL = /rye_(?:execute|search|load|fetch|sign)\(([^`)]*)$/;

/** Classifies the text before the cursor in a directive `.md` file. */
export function directiveContext(before: string): CursorContext | null {
  const line = before.slice(before.lastIndexOf("\n") + 1);
  let m: RegExpExecArray | null;
  if ((m = /\{input:([\p{L}\p{N}_]*)$/u.exec(line))) return { kind: "input", prefix: m[1]! };
  if ((m = /\$\{inputs\.([\p{L}\p{N}_]*)$/u.exec(line))) return { kind: "input", prefix: m[1]! };
  if ((m = new RegExp(String.raw`\bextends="(${ID})$`).exec(line))) return { kind: "extends", prefix: m[1]! };
  if ((m = /<(?:before|after|system|suppress)>\s*([^<\s]*)$/.exec(line))) return { kind: "context", prefix: m[1]! };
  if ((m = /<input\b[^>]*\btype="([\w]*)$/.exec(line))) return { kind: "input-type", prefix: m[1]! };
  if ((m = CALL.exec(line))) return callContext(m[1]!);
  if ((m = /<([a-z]*)$/.exec(line)) && insidePermissions(before)) return { kind: "permission", prefix: m[1]! };
  return null;
}

/** Classifies the text before the cursor in a tool's YAML (its config templates). */
export function toolContext(before: string): CursorContext | null {
  const line = before.slice(before.lastIndexOf("\n") + 1);
  let m: RegExpExecArray | null;
  if ((m = /\$\{([A-Z0-9_]*)$/.exec(line))) return { kind: "tool-env", prefix: m[1]! };
  if ((m = /(?<!\$)\{([\w]*)$/.exec(line))) return { kind: "tool-param", prefix: m[1]! };
  return null;
}

function callContext(args: string): CursorContext | null {
  const itemType = /\bitem_type="([^"]*)"/.exec(args)?.[1] ?? null;
  let m: RegExpExecArray | null;
  if ((m = new RegExp(String.raw`\bitem_id="(${ID})$`).exec(args))) return { kind: "call-id", itemType, prefix: m[1]! };
  const target = /\bitem_id="([^"]*)"/.exec(args)?.[1];
  const params = /\bparameters=\{([^}]*)$/.exec(args);
  if (target === undefined || !params) return null;
  // After `{` or `,` a key may start: `"na` (or nothing typed yet).
  if ((m = /(?:^|,)\s*"?([\w]*)$/.exec(params[1]!))) return { kind: "call-param", itemType, target, prefix: m[1]! };
  return null;
}

function insidePermissions(before: string): boolean {
  return before.lastIndexOf("<permissions>") > before.lastIndexOf("</permissions>");
}
