// Finds and reads the test files of a project: `.ai/tests/{directives,tools,knowledge}/<id>.test.yaml`.
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { badTestFile } from "../diagnostics/codes.js";
import { join, relative } from "node:path";
import type { ItemKind } from "../model/source.js";
import { LineIndex, type Diagnostic } from "../diagnostics/diagnostic.js";
import { readCases } from "./parse-case.js";
import { TEST_FOLDERS, TEST_SUFFIX, type TestFile } from "./test-file.js";
import { parseYaml, type YamlContext } from "./yaml-nodes.js";

/** Larger than any test file needs; a larger one is refused unread. */
const MAX_TEST_FILE = 1024 * 1024;

/** A test file's text read into cases; `path` relative to the project root. */
export function parseTestFile(kind: ItemKind, id: string, path: string, text: string): { file: TestFile; diagnostics: Diagnostic[] } {
  const ctx: YamlContext = { source: path, lines: new LineIndex(text), diagnostics: [] };
  const root = parseYaml(text, ctx);
  const cases = root === null ? [] : readCases(root, kind, ctx);
  return { file: { kind, id, path, text, cases, loc: ctx.lines.location(path, 0, 0) }, diagnostics: ctx.diagnostics };
}

/** Every test file under `<root>/.ai/tests/`, in a stable order (symbolic links are not followed). */
export function loadTestFiles(root: string): { files: TestFile[]; diagnostics: Diagnostic[] } {
  const files: TestFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const kind of ["directive", "knowledge", "tool"] as const) {
    const base = join(root, ".ai", "tests", TEST_FOLDERS[kind]);
    for (const abs of walk(base)) {
      const rel = relative(base, abs).split("\\").join("/");
      const path = relative(root, abs).split("\\").join("/");
      const size = statSync(abs).size;
      if (size > MAX_TEST_FILE) {
        diagnostics.push(badTestFile({ source: path, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } }, `the file is ${size} bytes, over the limit of ${MAX_TEST_FILE} bytes, so it is not read; keep large data out of test files`));
        continue;
      }
      const text = readFileSync(abs, "utf8");
      const read = parseTestFile(kind, rel.slice(0, -TEST_SUFFIX.length), path, text);
      files.push(read.file);
      diagnostics.push(...read.diagnostics);
    }
  }
  return { files, diagnostics };
}

function walk(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of entries) {
    const abs = join(dir, name);
    const st = lstatSync(abs);
    if (st.isDirectory()) out.push(...walk(abs));
    else if (st.isFile() && name.endsWith(TEST_SUFFIX)) out.push(abs);
  }
  return out;
}
