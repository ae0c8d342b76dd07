// Rename: an input, everywhere the directive and its callers name it.
import { pathToFileURL } from "node:url";
import { inputReferences } from "../navigation.js";
import { offsetAt, rangeOf } from "../positions.js";
import type { Session } from "../session.js";
import { tokenAt } from "../token-at.js";

export function registerRename(s: Session): void {
  s.connection.onPrepareRename(({ textDocument, position }) => {
    const text = s.textOf(textDocument.uri);
    const token = text === undefined ? null : tokenAt(text, offsetAt(text, position));
    if (!token || (token.kind !== "input" && token.kind !== "call-param")) return null;
    return { range: rangeOf(text!, token.start, token.end), placeholder: token.name };
  });

  s.connection.onRenameRequest(({ textDocument, position, newName }) => {
    const doc = s.open(textDocument.uri);
    if (!doc) return null;
    if (!/^[\p{L}\p{N}_]+$/u.test(newName)) throw new Error(`'${newName}' cannot be an input name: use letters, digits and underscores.`);
    const token = tokenAt(doc.text, offsetAt(doc.text, position));
    if (!token) return null;
    const changes: Record<string, { range: ReturnType<typeof rangeOf>; newText: string }[]> = {};
    for (const span of inputReferences(doc.ws, doc.file, doc.text, token)) {
      const uri = pathToFileURL(span.file).href;
      (changes[uri] ??= []).push({ range: rangeOf(span.text, span.start, span.end), newText: newName });
    }
    return { changes };
  });
}
