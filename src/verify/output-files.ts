// What an output folder may hold besides the files its manifest lists.
import { readRegularText } from "../project/read-regular.js";
import { NOT_BUILD_OUTPUT } from "../output/check-output.js";
import { RECORD } from "../output/output-record.js";
import { MANIFEST } from "../sign/sign-manifest.js";

export { MANIFEST };

/** The package.json every build writes, so Node reads the folder's `.js` files as ES modules. */
const PACKAGE_JSON = { type: "module", private: true };

/** The package.json every build writes and its manifest binds (at the root of the folder). */
export const MODULE_SCOPE_FILE = "package.json";

/** Files written by `rye bundle` beside the build: each carries its own signature and is checked as a bundle. */
export function isBundleFile(rel: string): boolean {
  return NOT_BUILD_OUTPUT.has(rel);
}

/**
 * The output writer's own folder (lock, journal, staging) and files, including its record of the
 * files it wrote: never build output, and the loader refuses to load any of them.
 */
export function isWriterFile(rel: string): boolean {
  const first = rel.split("/")[0]!;
  return first === ".rye" || rel === ".gitattributes" || rel === RECORD || rel === ".bundle-entry.mjs";
}

/**
 * Whether an unlisted file at `rel` is expected: the manifest, the output writer's own files, bundle
 * files, and a package.json holding exactly what the build writes (it changes how Node reads every
 * module beside it). Anything else unlisted fails verification.
 */
export function allowedUnlisted(rel: string, absolute: string): boolean {
  if (rel === MANIFEST || isBundleFile(rel) || isWriterFile(rel) || /^bundle\.mjs\.[A-Za-z0-9]+$/.test(rel)) return true;
  if (rel !== "package.json") return false;
  try {
    const parsed = JSON.parse(readRegularText(absolute, { kind: "config" })) as Record<string, unknown>;
    return Object.keys(parsed).length === 2 && parsed.type === PACKAGE_JSON.type && parsed.private === PACKAGE_JSON.private;
  } catch {
    return false;
  }
}
