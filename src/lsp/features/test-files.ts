// Test files (`.ai/tests/<kind>/<id>.test.yaml`) in the editor: the checks `rye test` makes before
// anything runs (RYE9101–RYE9105) published on each open test file, completion of what a case may
// say, and code lenses that run one case or all of them (`rye.test`), compiled in memory from the
// sources as `rye test` does, the result sent back (and pushed as `rye/test`).
import { readRegularText } from "../../project/read-regular.js";
import { homedir } from "node:os";
import { relative, resolve, sep } from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ItemKind, SourceFile } from "../../model/source.js";
import { resolveSettings } from "../../project/settings.js";
import { checkCases, type Catalog, type ItemShape } from "../../testing/check-cases.js";
import { parseTestFile } from "../../testing/load-cases.js";
import { TEST_FOLDERS, TEST_SUFFIX, type TestFile } from "../../testing/test-file.js";
import { paramsOf, type ParamInfo } from "../item-info.js";
import { offsetAt, toRange } from "../positions.js";
import { fileOf, type Session } from "../session.js";
import { completeTestFile } from "../test-completion.js";
import type { TestRun } from "./case-run.js";
import { runCasesApart } from "./run-case-file.js";
import type { Workspace } from "../workspace.js";

/** As `rye test` reads test files: a larger one is not read. */
const MAX_TEST_FILE = 1024 * 1024;

/** The item a file under `<root>/.ai/tests/` tests, or null when it is no test file. */
export function testFileAt(root: string, file: string): { kind: ItemKind; id: string; path: string } | null {
  const path = relative(root, file).split(sep).join("/");
  if (!path.endsWith(TEST_SUFFIX)) return null;
  for (const kind of ["directive", "knowledge", "tool"] as const) {
    const prefix = `.ai/tests/${TEST_FOLDERS[kind]}/`;
    if (path.startsWith(prefix) && path.length > prefix.length + TEST_SUFFIX.length) return { kind, id: path.slice(prefix.length, -TEST_SUFFIX.length), path };
  }
  return null;
}

export type { CaseOutcome, TestRun } from "./case-run.js";

export function registerTestFiles(s: Session): void {
  let shown = new Set<string>();
  s.afterPublish.push(() => {
    const ws = s.ws;
    if (!ws) return;
    const now = new Set<string>();
    for (const doc of s.documents.all()) {
      const read = readOpen(s, ws, doc.uri);
      if (!read) continue;
      now.add(doc.uri);
      const diagnostics = checkFile(s, ws, read.file, read.diagnostics).map(toLsp);
      void s.connection.sendDiagnostics({ uri: doc.uri, diagnostics });
    }
    for (const uri of shown) if (!now.has(uri)) void s.connection.sendDiagnostics({ uri, diagnostics: [] });
    shown = now;
  });

  s.connection.onCompletion(({ textDocument, position }) => {
    const ws = s.ws;
    const file = fileOf(textDocument?.uri);
    const at = ws && file ? testFileAt(ws.root, file) : null;
    const text = at ? textOf(s, textDocument.uri) : undefined;
    if (!ws || !at || text === undefined) return null;
    const sources = ws.sources();
    const src = sources.find((x) => x.kind === at.kind && x.id === at.id && (x.space ?? "project") === "project");
    return completeTestFile(text.slice(0, offsetAt(text, position)), { kind: at.kind, inputs: src ? paramsOf(src) : [], sources });
  });

  s.connection.onCodeLens(({ textDocument }) => {
    const read = s.ws ? readOpen(s, s.ws, textDocument?.uri) : null;
    if (!read) return [];
    const uri = textDocument.uri as string;
    const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const all = { range: top, command: { title: "Run all cases", command: "rye.test", arguments: [uri] } };
    return [all, ...read.file.cases.map((c) => ({ range: toRange(c.loc), command: { title: "Run case", command: "rye.test", arguments: [uri, c.name] } }))];
  });

  s.connection.onExecuteCommand(async ({ command, arguments: args }) => {
    if (command !== "rye.test" || typeof args?.[0] !== "string") return null;
    const run = await runFile(s, args[0], typeof args[1] === "string" ? args[1] : undefined);
    if (run) await s.connection.sendNotification("rye/test", run);
    return run;
  });
}

/** The editor's buffer, else the file on disk when it is small enough to be a test file. */
function textOf(s: Session, uri: string): string | undefined {
  const open = s.documents.get(uri)?.getText();
  if (open !== undefined) return open;
  const file = fileOf(uri);
  try {
    return file ? readRegularText(file, { kind: "config", maxBytes: MAX_TEST_FILE, link: { links: "follow" } }) : undefined;
  } catch {
    return undefined;
  }
}

function readOpen(s: Session, ws: Workspace, uri: unknown): { file: TestFile; diagnostics: Diagnostic[] } | null {
  const file = fileOf(uri);
  const at = file ? testFileAt(ws.root, file) : null;
  const text = at ? textOf(s, uri as string) : undefined;
  return at && text !== undefined ? parseTestFile(at.kind, at.id, at.path, text) : null;
}

/** The file's own problems and the checks against the project's items, read from their sources. */
function checkFile(s: Session, ws: Workspace, file: TestFile, read: Diagnostic[]): Diagnostic[] {
  return [...read, ...checkCases([file], catalogOfSources(s, ws.sources()))].filter((d) => d.loc?.source === file.path);
}

/** The shapes `rye test` checks against, from the project's sources (no compiling). */
function catalogOfSources(s: Session, sources: readonly SourceFile[]): Catalog {
  const catalog = { directive: new Map<string, ItemShape>(), knowledge: new Map<string, ItemShape>(), tool: new Map<string, ItemShape>() };
  for (const src of sources) {
    // A run compiles the project's own items only, so a test of an item from another space finds none.
    if ((src.space ?? "project") !== "project" || catalog[src.kind].has(src.id)) continue;
    catalog[src.kind].set(src.id, src.kind === "knowledge" ? { inputs: [], required: [], closed: true } : shapeOf(s, src));
  }
  return catalog;
}

function shapeOf(s: Session, src: SourceFile): ItemShape {
  // A directive's analysis has the inputs a compiled module declares; its own text is the fallback.
  const analysed = src.kind === "directive" ? s.analysedInputs.get(src.id) : undefined;
  const params: ParamInfo[] = analysed ? analysed.map((i) => ({ name: i.name, required: i.required === true && i.default === undefined })) : paramsOf(src).map((p) => ({ ...p, required: p.required && p.default === undefined }));
  return { inputs: params.map((p) => p.name), required: params.filter((p) => p.required).map((p) => p.name), closed: params.length > 0 };
}

function toLsp(d: Diagnostic): { range: ReturnType<typeof toRange>; severity: 1 | 2 | 3; code: string; source: string; message: string } {
  return { range: toRange(d.loc!), severity: d.severity === "error" ? 1 : d.severity === "warning" ? 2 : 3, code: d.code, source: "rye", message: d.message };
}

/** Runs the file's cases (or the one named) against the sources compiled in memory; null when `uri` is no test file. */
async function runFile(s: Session, uri: string, only: string | undefined): Promise<TestRun | null> {
  const ws = s.ws;
  const file = fileOf(uri);
  const at = ws && file ? testFileAt(ws.root, file) : null;
  const text = at ? textOf(s, uri) : undefined;
  if (!ws || !at || text === undefined) return null;
  const userSpace = resolveSettings(ws.root, {}, ws.root, process.env).userSpace ?? resolve(process.env.USER_SPACE ?? homedir());
  const sources = ws.sources().map((src) => ({ kind: src.kind, id: src.id, path: src.path, ext: src.ext, space: src.space, text: src.text }));
  return runCasesApart({ uri, root: ws.root, userSpace, test: { ...at, text }, only, sources, hookConfig: ws.hookConfig });
}
