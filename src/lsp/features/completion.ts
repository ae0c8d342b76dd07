// Completion: what the cursor's context in a directive or a tool YAML allows next.
import { complete } from "../completion.js";
import { directiveContext, toolContext } from "../cursor-context.js";
import { offsetAt } from "../positions.js";
import type { Session } from "../session.js";

export function registerCompletion(s: Session): void {
  s.connection.onCompletion(({ textDocument, position }) => {
    const doc = s.open(textDocument.uri);
    if (!doc) return [];
    const { ws, file, text } = doc;
    const before = text.slice(0, offsetAt(text, position));
    const ref = ws.itemAt(file);
    const ctx = ref?.kind === "tool" || file.endsWith(".yaml") || file.endsWith(".yml") ? toolContext(before) : directiveContext(before);
    return ctx ? complete(ctx, text, ref?.path ?? file, ws.sources()) : [];
  });
}
