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
