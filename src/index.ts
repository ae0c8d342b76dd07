// The package's programmatic API: the pure compiler (`build`), the build engine the CLI runs
// (`loadProject`, `buildProject`), and diagnostic formatting. See docs/api.md.
export { build } from "./compile/build.js";
export type { BuildItemHooks, BuildOptions, BuildResult } from "./compile/build.js";
export type { ItemKind, SourceFile } from "./model/source.js";
export type { ItemOutcome } from "./compile/compile-directives.js";
export type { Diagnostic, Location, Position, Severity } from "./diagnostics/diagnostic.js";
export { formatDiagnostic, formatSummary } from "./diagnostics/format.js";
export { parseDirective } from "./parse/parse-directive.js";
export { VERSION } from "./version.js";
export { loadProject, type LoadedProject, type LoadProjectOptions } from "./builder/load-project.js";
export { buildProject, type ProjectBuildOptions, type ProjectBuildResult } from "./builder/build-project.js";
export type { Io } from "./host.js";
export { verify, type VerifyOptions, type VerifyResult } from "./verify/verify.js";
export { IntegrityError } from "./verify/integrity-error.js";
export { runBundleTool, type RunBundleToolOptions } from "./bundle/run-bundle-tool.js";
export { loadTrustAnchors, type TrustAnchors, type TrustAnchorOptions } from "./verify/trust-anchors.js";
