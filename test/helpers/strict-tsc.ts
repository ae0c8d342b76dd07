import { createRequire } from "node:module";
import { relative } from "node:path";

/** TypeScript, loaded the fast way (CommonJS require) and only by the suites that type-check. */
export const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");

/** The strictest settings a consumer of emitted modules might use. */
export const STRICT: import("typescript").CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  types: [],
};

/** Every diagnostic of `program` as `file:line message`, paths relative to `dir`. */
export function problemsOf(program: import("typescript").Program, dir: string): string[] {
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

/** A language service over `file` alone (what it imports is read from disk), with the strict settings: what an editor asks. */
export function languageService(file: string, dir: string): import("typescript").LanguageService {
  return ts.createLanguageService({
    getCompilationSettings: () => STRICT,
    getScriptFileNames: () => [file],
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => (ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)!) : undefined),
    getCurrentDirectory: () => dir,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
  });
}
