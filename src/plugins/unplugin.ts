/**
 * `rye-build/unplugin`: the verifying load hook as one unplugin, so Rollup, webpack, Rspack,
 * Rolldown, Vite and esbuild all run the same check (`rye-build/rollup`, `/webpack` and `/rspack`
 * are its entry points). Every file of a build output folder is read once, verified as the Node
 * loader verifies it, and the verified text is what the bundler compiles; a failing file fails the build.
 */
import { createUnplugin } from "unplugin";
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";
import { checkRequest, filePathOf, verifiedLoad } from "./verified-load.js";

export type { GuardOptions };

/** The plugin factory; options add anchor keys (`trustedKeys`) and folders that must be build output (`outputDirs`). */
export const ryeUnplugin = createUnplugin((options: GuardOptions | undefined) => {
  let guard: OutputGuard | undefined;
  return {
    name: "rye-verify",
    enforce: "pre" as const,
    // Resolves only an output module's runtime package (from rye-build's install); refuses an import whose path, as written, runs through a link inside an output folder.
    resolveId(source: string, importer: string | undefined) {
      guard ??= new OutputGuard(options ?? {});
      // A runtime package stays an external bare import, resolved where the bundle runs, never from out/.
      return !checkRequest(guard, source, importer) ? null : { id: source, external: true };
    },
    // Every file: one inside an output folder is verified whatever its extension (verified-load.ts).
    loadInclude: (id: string) => filePathOf(id) !== null,
    load(id: string) {
      guard ??= new OutputGuard(options ?? {});
      return verifiedLoad(guard, id);
    },
  };
});

export default ryeUnplugin;
