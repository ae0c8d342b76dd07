// Definition, references and rename: from the token under the cursor to every place it stands.
import type { SourceFile } from "../model/source.js";
import type { Workspace } from "./workspace.js";
import { callParamSpans, inputSpans, type Token } from "./token-at.js";

/** A span of a file, by offsets into the text the server holds for it. */
export interface FileSpan {
  file: string;
  text: string;
  start: number;
  end: number;
}

/** The first file an id resolves to (project → user → system) among `kinds`. */
export function resolveItem(sources: readonly SourceFile[], kinds: readonly string[], id: string): SourceFile | undefined {
  for (const kind of kinds) {
    const found = sources.find((s) => s.kind === kind && s.id === id);
    if (found) return found;
  }
  return undefined;
}

/** Where the token is defined: an item's file, or an input's declaration. */
export function definitionOf(ws: Workspace, file: string, text: string, token: Token): FileSpan | null {
  if (token.kind === "id") {
    const src = resolveItem(ws.sources(), token.itemKinds, token.id);
    return src ? { file: ws.absolute(src.path), text: src.text, start: 0, end: 0 } : null;
  }
  if (token.kind === "input") {
    const decl = inputSpans(text, token.name).find(([s]) => text.lastIndexOf("<input", s) > text.lastIndexOf(">", s - 1));
    return decl ? { file, text, start: decl[0], end: decl[1] } : null;
  }
  if (token.kind === "call-param") {
    const src = resolveItem(ws.sources(), token.itemKinds, token.target);
    if (!src || src.kind !== "directive") return src ? { file: ws.absolute(src.path), text: src.text, start: 0, end: 0 } : null;
    return definitionOf(ws, ws.absolute(src.path), src.text, { kind: "input", name: token.name, start: 0, end: 0 });
  }
  return null;
}

/**
 * Every place an input is written: its declaration and placeholders in its directive, and the
 * parameter keys of calls to that directive in the project's other directives.
 */
export function inputReferences(ws: Workspace, file: string, text: string, token: Token): FileSpan[] {
  let owner = { file, text };
  let name: string;
  if (token.kind === "input") name = token.name;
  else if (token.kind === "call-param") {
    const src = resolveItem(ws.sources(), token.itemKinds, token.target);
    if (!src || src.kind !== "directive") return [];
    owner = { file: ws.absolute(src.path), text: src.text };
    name = token.name;
  } else return [];
  const ref = ws.itemAt(owner.file);
  const spans: FileSpan[] = inputSpans(owner.text, name).map(([start, end]) => ({ ...owner, start, end }));
  if (!ref || ref.kind !== "directive") return spans;
  for (const src of ws.sources()) {
    if (src.kind !== "directive" || (src.space ?? "project") !== "project") continue;
    const other = ws.absolute(src.path);
    for (const [start, end] of callParamSpans(src.text, ref.id, name)) spans.push({ file: other, text: src.text, start, end });
  }
  return spans;
}
