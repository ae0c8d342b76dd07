/**
 * `rye-build/rspack`: the Rspack plugin that verifies every file of a build output folder as Rspack loads
 * it (the shared unplugin, see ./unplugin.ts): the verified bytes are what gets bundled, and a file
 * that fails the check fails the build, naming its item.
 */
import type { GuardOptions } from "../verify/output-guard.js";
import { ryeUnplugin } from "./unplugin.js";

/** The plugin; options add anchor keys (`trustedKeys`) and folders that must be build output (`outputDirs`). */
export function ryeVerify(options: GuardOptions = {}): ReturnType<typeof ryeUnplugin.rspack> {
  return ryeUnplugin.rspack(options);
}

export default ryeVerify;
