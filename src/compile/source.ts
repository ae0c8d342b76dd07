// Kept so that modules written against the old path still compile; new code imports model/source.js.
export type { ItemKind, SourceFile } from "../model/source.js";
