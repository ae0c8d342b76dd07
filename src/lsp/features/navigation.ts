// Navigation: go to the definition of an item, input or parameter, and find an input's references.
import { definitionOf, inputReferences } from "../navigation.js";
import { offsetAt } from "../positions.js";
import { locationOf, type Session } from "../session.js";
import { tokenAt } from "../token-at.js";

export function registerNavigation(s: Session): void {
  s.connection.onDefinition(({ textDocument, position }) => {
    const doc = s.open(textDocument.uri);
    if (!doc) return null;
    const token = tokenAt(doc.text, offsetAt(doc.text, position));
    const span = token ? definitionOf(doc.ws, doc.file, doc.text, token) : null;
    return span ? locationOf(span) : null;
  });

  s.connection.onReferences(({ textDocument, position }) => {
    const doc = s.open(textDocument.uri);
    if (!doc) return [];
    const token = tokenAt(doc.text, offsetAt(doc.text, position));
    return token ? inputReferences(doc.ws, doc.file, doc.text, token).map(locationOf) : [];
  });
}
