// Finds and reads the test files of a project: `.ai/tests/{directives,tools,knowledge}/<id>.test.yaml`.
import { readRegularText, Unreadable } from "../project/read-regular.js";
import { badTestFile } from "../diagnostics/codes.js";
import { join, relative } from "node:path";
import type { ItemKind } from "../model/source.js";
import { LineIndex, type Diagnostic, type Location } from "../diagnostics/diagnostic.js";
import { MAX_FOLDER_DEPTH } from "../project/file-kinds.js";
import { readCases } from "./parse-case.js";
import { TEST_FOLDERS, TEST_SUFFIX, type TestFile } from "./test-file.js";
import { testTree } from "./test-tree.js";
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
    const tree = testTree(base);
    for (const dir of tree.tooDeep) diagnostics.push(badTestFile(startOf(relative(root, dir).split("\\").join("/")), `the folder lies more than ${MAX_FOLDER_DEPTH} folders below .ai/tests/${TEST_FOLDERS[kind]}, the limit on folder depth, so nothing in it is read`));
    for (const abs of tree.files.filter((f) => f.endsWith(TEST_SUFFIX))) {
      const rel = relative(base, abs).split("\\").join("/");
      const path = relative(root, abs).split("\\").join("/");
      let text: string;
      try {
        // The walk found a regular file; the open file is checked again, and read only within the limit.
        text = readRegularText(abs, { kind: "config", maxBytes: MAX_TEST_FILE, link: { links: "refuse" } });
      } catch (e) {
        const why = e instanceof Unreadable && e.size !== undefined ? `the file is ${e.size} bytes, over the limit of ${MAX_TEST_FILE} bytes, so it is not read; keep large data out of test files` : `it cannot be read: ${(e as Error).message}`;
        diagnostics.push(badTestFile(startOf(path), why));
        continue;
      }
      const read = parseTestFile(kind, rel.slice(0, -TEST_SUFFIX.length), path, text);
      files.push(read.file);
      diagnostics.push(...read.diagnostics);
    }
  }
  return { files, diagnostics };
}

function startOf(source: string): Location {
  return { source, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };
}
