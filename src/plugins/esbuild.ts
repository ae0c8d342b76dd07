/**
 * `rye-build/esbuild`: an esbuild plugin that verifies every file of a build output folder as
 * esbuild loads it. Each file is read once; the bytes that pass the check (the signed manifest,
 * file by file, as the Node loader does) are the bytes handed to esbuild, so the bundle carries
 * only verified code and needs no file system at run time. A failing file fails the build.
 */
import { resolve } from "node:path";
import type { Loader, Plugin } from "esbuild";
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";
import { checkRequest, CODE, realPath } from "./verified-load.js";
import { refuseInlinedOutput } from "./inlined-output-guard.js";

// Before anything of a config that imports this module runs (inlined-output-guard.ts).
refuseInlinedOutput();

const LOADERS: Record<string, Loader> = { js: "js", mjs: "js", cjs: "js", ts: "ts", mts: "ts", cts: "ts", json: "json" };


/** The plugin; options add anchor keys (`trustedKeys`) and folders that must be build output (`outputDirs`). */
export function ryeVerify(options: GuardOptions = {}): Plugin {
  return {
    name: "rye-verify",
    setup(build) {
      const guard = new OutputGuard(options);
      // esbuild follows links before onLoad sees a path: the import as written is checked here.
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace !== "file" && args.kind !== "entry-point") return undefined;
        if ((args.pluginData as { ryeLands?: true } | undefined)?.ryeLands) return undefined;
        const rye = checkRequest(guard, args.path, args.importer || undefined, args.resolveDir || process.cwd());
        // A request naming an output folder (or a path in one) must land inside it, whatever out/package.json says.
        const named = /^(?:\.\.?(?:\/|$)|\/)/.test(args.path) ? resolve(args.resolveDir || process.cwd(), args.path) : null;
        if (!rye && named !== null && guard.outputFolderNamed(named) !== null) {
          const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { ryeLands: true } });
          if (found.errors.length === 0 && found.path !== "") guard.checkLands(named, found.path);
        }
        // A runtime package stays an external bare import, resolved where the bundle runs, never from out/.
        return !rye ? undefined : { path: args.path, external: true };
      });
      // Every file: one inside an output folder is verified whatever its extension (esbuild resolves a
      // folder to index.tsx or index.jsx too); outside, only code files can be a signed bundle.
      build.onLoad({ filter: /.*/ }, (args) => {
        if (args.namespace !== "file") return undefined;
        const code = CODE.test(args.path);
        if (!code && guard.outputFolderOf(realPath(args.path)) === null) return undefined;
        const bytes = guard.read(args.path);
        // Not rye output: esbuild reads it as usual. Otherwise this throws, naming the item.
        if (guard.check(args.path, bytes) === undefined) return undefined;
        const loader = LOADERS[args.path.slice(args.path.lastIndexOf(".") + 1)] ?? "default";
        return { contents: bytes, loader };
      });
    },
  };
}

export default ryeVerify;
