/**
 * `rye-build/vite`: a Vite (and Rollup) plugin whose `load` hook verifies every file of a build
 * output folder before Vite sees it, with the same check as the Node loader: each file is read
 * once, and the verified text is what Vite transforms and bundles. A failing file fails the build.
 */
import { readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";

/** The shape of the plugin (a subset of Vite's and Rollup's Plugin type, so neither is a dependency). */
export interface RyeVitePlugin {
  name: string;
  enforce: "pre";
  load(id: string): string | null;
}

const CODE = /\.(?:[cm]?js|[cm]?ts|json)$/;

/** The plugin; options add anchor keys (`trustedKeys`) and folders that must be build output (`outputDirs`). */
export function ryeVerify(options: GuardOptions = {}): RyeVitePlugin {
  let guard: OutputGuard | undefined;
  return {
    name: "rye-verify",
    enforce: "pre",
    load(id) {
      // Virtual modules (`\0…`) and query variants other than plain files are not ours to read.
      const path = id.split("?")[0]!;
      if (id.startsWith("\0") || !isAbsolute(path) || !CODE.test(path)) return null;
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        return null;
      }
      guard ??= new OutputGuard(options);
      return guard.check(path, bytes) === undefined ? null : bytes.toString("utf8");
    },
  };
}

export default ryeVerify;
