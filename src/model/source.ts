// One source item as the compiler sees it: the unit every phase and the build engine pass around.
/** The kinds of item a project holds, each under its own `.ai/` folder. */
export type ItemKind = "directive" | "knowledge" | "tool";

/** One source item: `path` relative to the project root, `id` its item id (path under `.ai/<kind>/` without extension). */
export interface SourceFile {
  kind: ItemKind;
  id: string;
  path: string;
  /** The file extension, e.g. ".md" or ".py" (defaults to ".md"). */
  ext?: string;
  /** The space the item was found in: "project" (default), "user" or "system:<name>". Only project items are emitted. */
  space?: string;
  text: string;
}
