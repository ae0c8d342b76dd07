import { lstatSync, readFileSync, readdirSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { SourceFile } from "../index.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Finds `<project>/.ai/directives/**\/*.md`, sorted by item id so builds are deterministic. */
export function readProject(projectDir: string): { sources: SourceFile[]; diagnostics: Diagnostic[] } {
  const root = join(projectDir, ".ai", "directives");
  const sources: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of walk(root)) {
    const path = relative(projectDir, file).split(sep).join("/");
    const id = relative(root, file).split(sep).join("/").replace(/\.md$/, "");
    try {
      sources.push({ kind: "directive", id, path, text: decoder.decode(readFileSync(file)) });
    } catch (e) {
      const at = { offset: 0, line: 1, column: 1 };
      const detail = e instanceof TypeError ? "not valid UTF-8" : (e as Error).message;
      diagnostics.push(d.unreadableFile({ source: path, start: at, end: at }, detail));
    }
  }
  sources.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { sources, diagnostics };
}

function* walk(dir: string): Generator<string> {
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
      if (tst.isDirectory()) yield* walk(full);
      else if (tst.isFile() && name.endsWith(".md")) yield full;
    } else if (st.isDirectory()) yield* walk(full);
    else if (st.isFile() && name.endsWith(".md")) yield full;
  }
}
