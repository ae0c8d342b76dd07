import { lstatSync, readFileSync, readdirSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { ItemKind, SourceFile } from "../index.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Where each kind of item lives under `.ai/`, and which file extensions count, in probing order. */
export const ITEM_DIRS: Record<ItemKind, { dir: string; exts: readonly string[] }> = {
  directive: { dir: "directives", exts: [".md"] },
  knowledge: { dir: "knowledge", exts: [".md", ".yaml", ".yml"] },
  tool: { dir: "tools", exts: [".py", ".yaml", ".yml", ".js", ".ts", ".mjs", ".cjs", ".sh"] },
};

/** Finds every item under `<project>/.ai/`, sorted by kind and item id so builds are deterministic. */
export function readProject(projectDir: string, kinds: readonly ItemKind[] = ["directive", "knowledge", "tool"]): { sources: SourceFile[]; diagnostics: Diagnostic[] } {
  const sources: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const kind of kinds) {
    const { dir, exts } = ITEM_DIRS[kind];
    const root = join(projectDir, ".ai", dir);
    for (const file of walk(root, exts)) {
      const path = relative(projectDir, file).split(sep).join("/");
      const rel = relative(root, file).split(sep).join("/");
      const ext = exts.find((e) => rel.endsWith(e))!;
      const id = rel.slice(0, -ext.length);
      try {
        sources.push({ kind, id, path, ext, text: decoder.decode(readFileSync(file)) });
      } catch (e) {
        const at = { offset: 0, line: 1, column: 1 };
        const detail = e instanceof TypeError ? "not valid UTF-8" : (e as Error).message;
        diagnostics.push(d.unreadableFile({ source: path, start: at, end: at }, detail));
      }
    }
  }
  // Within one id, files follow the fixed extension probing order of ITEM_DIRS (decisions.md #18).
  const extRank = (x: SourceFile) => ITEM_DIRS[x.kind].exts.indexOf(x.ext ?? "");
  sources.sort((a, b) => (a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : extRank(a) - extRank(b)));
  return { sources, diagnostics };
}

function* walk(dir: string, exts: readonly string[]): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of entries) {
    const full = join(dir, name);
    const st = lstatSync(full);
    if (st.isSymbolicLink()) {
      // Follow links only when they stay inside the directives tree.
      let target: string;
      try {
        target = realpathSync(full);
      } catch {
        continue;
      }
      if (!target.startsWith(realpathSync(dir) + sep)) continue;
      const tst = lstatSync(target);
      if (tst.isDirectory()) yield* walk(full, exts);
      else if (tst.isFile() && exts.some((e) => name.endsWith(e))) yield full;
    } else if (st.isDirectory()) yield* walk(full, exts);
    else if (st.isFile() && exts.some((e) => name.endsWith(e))) yield full;
  }
}
