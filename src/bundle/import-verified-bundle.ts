/**
 * Loads a bundle the way `rye run` does: read once, verify those bytes against the trust anchors,
 * then evaluate exactly that buffer. The bytes are written to a new private folder (0700) as a file
 * created exclusively (0600), and that file is imported: nothing else can have written it, and the
 * bundle on disk is never read a second time. A bundle that fails verification never reaches
 * `import()`, so not even its top level runs.
 */
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { readRegular } from "../project/read-regular.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { IntegrityError } from "../verify/integrity-error.js";
import { loadTrustAnchors } from "../verify/trust-anchors.js";
import { verifyBundleBytes } from "../verify/verify-bundle.js";

/** Where the anchors come from, as for `verify`. */
export interface BundleTrustOptions {
  trustedKeys?: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** A verified bundle's exports, and `dispose` to remove its private copy once the run is over. */
export interface LoadedBundle<T> {
  module: T;
  dispose(): void;
}

/** Verifies the bundle at `path` (and its `.sig`, when present), then imports the verified bytes; throws IntegrityError otherwise. */
export async function importVerifiedBundle<T>(path: string, label: string, options: BundleTrustOptions = {}): Promise<LoadedBundle<T>> {
  // The bundle the application names: a link is followed, but only a regular file of bounded size is read.
  const bytes = readRegular(path, { kind: "output", link: { links: "follow" } });
  const signature = existsSync(`${path}.sig`) ? readRegular(`${path}.sig`, { kind: "key", link: { links: "follow" } }) : null;
  const anchors = loadTrustAnchors({ checkedPath: path, trustedKeys: options.trustedKeys, env: options.env, cwd: options.cwd });
  const result = verifyBundleBytes(bytes, anchors.store, label, signature);
  if (!result.ok) {
    const hint = anchors.warnings.length > 0 ? `\n  ${anchors.warnings.join("\n  ")}` : "";
    throw new IntegrityError(label, `${result.problems.join("\n")}${hint}\n  The bundle was not run.`);
  }
  const dir = mkdtempSync(join(tmpdir(), "rye-run-"));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    const file = join(dir, "bundle.mjs");
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    return { module: (await import(pathToFileURL(file).href)) as T, dispose };
  } catch (e) {
    dispose();
    throw e;
  }
}
