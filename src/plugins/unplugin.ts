/**
 * `rye-build/unplugin`: the verifying load hook as one unplugin, so Rollup, webpack, Rspack,
 * Rolldown, Vite and esbuild all run the same check (`rye-build/rollup`, `/webpack` and `/rspack`
 * are its entry points). Every file of a build output folder is read once, verified as the Node
 * loader verifies it, and the verified text is what the bundler compiles; a failing file fails the build.
 *
 * Two rules of the Vite plugin hold here too. A request naming an output folder (`import "./out"`)
 * must land inside it, whatever that folder's package.json says: Rollup and Rolldown ask the bundler
 * in `resolveId`, webpack and Rspack read the answer in their module factory (webpack-like-checks.ts).
 * And a bundle may not leave external a package holding build output (Rollup leaves an unresolved
 * bare import external with a warning only): Node would load it where the bundle runs, unverified.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { createUnplugin } from "unplugin";
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";
import { checkExternals, externalsOf, PackageOutput } from "./package-output.js";
import { checkRequest, filePathOf, verifiedLoad } from "./verified-load.js";
import { tapWebpackLike, type WebpackLikeCompiler } from "./webpack-like-checks.js";
import { refuseInlinedOutput } from "./inlined-output-guard.js";

// Before anything of a config that imports this module runs (inlined-output-guard.ts).
refuseInlinedOutput();

export type { GuardOptions };

type Resolved = { id: string } | null;
type ResolveContext = { resolve?: (source: string, importer: string | undefined, options: { skipSelf: boolean }) => Promise<Resolved> };
type Output = { dir?: string; file?: string };

/** The plugin factory; options add anchor keys (`trustedKeys`) and folders that must be build output (`outputDirs`). */
export const ryeUnplugin = createUnplugin((options: GuardOptions | undefined) => {
  let guard: OutputGuard | undefined;
  const guardOf = () => (guard ??= new OutputGuard(options ?? {}));
  let packages: PackageOutput | undefined;
  const packagesOf = () => (packages ??= new PackageOutput(guardOf()));
  // Rollup, Rolldown and Vite: no bundle leaves external a package holding build output.
  const generateBundle = (output: Output, bundle: Parameters<typeof externalsOf>[0]) => {
    const root = process.cwd();
    checkExternals(packagesOf(), output.dir ?? (output.file ? dirname(output.file) : root), root, externalsOf(bundle), (name) => `resolve it with a node-resolve plugin and do not list "${name}" in external`);
  };
  return {
    name: "rye-verify",
    enforce: "pre" as const,
    // Resolves only an output module's runtime package (from rye-build's install); refuses an import whose path, as written, runs through a link inside an output folder.
    async resolveId(source: string, importer: string | undefined) {
      // Rollup and Rolldown hand their plugin context (`this.resolve`); webpack and Rspack do not (see webpack-like-checks.ts).
      const bundler = this as unknown as ResolveContext | undefined;
      // A runtime package stays an external bare import, resolved where the bundle runs, never from out/.
      if (checkRequest(guardOf(), source, importer)) return { id: source, external: true };
      // A request naming an output folder (or a path in one) must land inside it, whatever out/package.json says.
      const from = importer && isAbsolute(importer.split("?")[0]!) ? dirname(importer.split("?")[0]!) : process.cwd();
      const named = /^(?:\.\.?(?:\/|$)|\/)/.test(source) ? resolve(from, source) : null;
      if (named === null || typeof bundler?.resolve !== "function" || guardOf().outputFolderNamed(named) === null) return null;
      const landed = await bundler.resolve(source, importer, { skipSelf: true });
      if (landed && isAbsolute(landed.id.split("?")[0]!)) guardOf().checkLands(named, landed.id.split("?")[0]!);
      return landed;
    },
    // Every file: one inside an output folder is verified whatever its extension (verified-load.ts).
    loadInclude: (id: string) => filePathOf(id) !== null,
    load(id: string) {
      return verifiedLoad(guardOf(), id);
    },
    rollup: { generateBundle },
    rolldown: { generateBundle },
    vite: { generateBundle },
    webpack: (compiler: unknown) => tapWebpackLike(compiler as WebpackLikeCompiler, guardOf, packagesOf),
    rspack: (compiler: unknown) => tapWebpackLike(compiler as WebpackLikeCompiler, guardOf, packagesOf),
  };
});

export default ryeUnplugin;
