// Hover: the item, input or parameter under the cursor, and the explanation of any diagnostic there.
import { CODES } from "../../diagnostics/codes.js";
import { itemMarkdown, paramMarkdown, inputsOfText, paramsOf } from "../item-info.js";
import { resolveItem } from "../navigation.js";
import { offsetAt, rangeOf } from "../positions.js";
import type { Session } from "../session.js";
import { tokenAt, type Token } from "../token-at.js";
import type { Workspace } from "../workspace.js";

/** A diagnostic code's explanation, as the diagnostics reference gives it. */
function explain(code: string): string {
  const entry = Object.hasOwn(CODES, code) ? CODES[code as keyof typeof CODES] : undefined;
  return entry ? `**${code}** (${entry[0]}): ${entry[1]}. See docs/diagnostics.md#${code.toLowerCase()}.` : "";
}

export function registerHover(s: Session): void {
  s.connection.onHover(({ textDocument, position }) => {
    const doc = s.open(textDocument.uri);
    if (!doc) return null;
    const { text, file } = doc;
    const offset = offsetAt(text, position);
    const token = tokenAt(text, offset);
    // A diagnostic under the cursor is explained by its code's entry, whatever else is there.
    const explained = (s.published.get(file) ?? []).filter((d) => d.loc!.start.offset <= offset && offset <= d.loc!.end.offset).map((d) => explain(d.code));
    const markdown = (value: string) => ({ contents: { kind: "markdown" as const, value: [...explained, value].filter(Boolean).join("\n\n---\n\n") }, ...(token ? { range: rangeOf(text, token.start, token.end) } : {}) });
    if (!token) return explained.length > 0 ? markdown("") : null;
    return markdown(describe(doc.ws, file, text, token));
  });
}

/** The markdown a token's hover shows. */
function describe(ws: Workspace, file: string, text: string, token: Token): string {
  if (token.kind === "code") return explain(token.code);
  if (token.kind === "id") {
    const src = resolveItem(ws.sources(), token.itemKinds, token.id);
    return itemMarkdown(src?.kind ?? token.itemKinds[0]!, token.id, src);
  }
  if (token.kind === "input") {
    const input = inputsOfText(text, file).find((i) => i.name === token.name);
    return input ? paramMarkdown(input) : `\`${token.name}\` is not a declared input of this directive.`;
  }
  const target = resolveItem(ws.sources(), token.itemKinds, token.target);
  const param = target ? paramsOf(target).find((p) => p.name === token.name) : undefined;
  return param ? paramMarkdown(param) : `\`${token.name}\` is no parameter of \`${token.target}\`.`;
}
