/**
 * The signature check behind `verify_deps` (src/runtime/exec/verify-deps.ts walks, this verifies):
 * each file of the scope must carry a `rye:signed:` line whose hash matches and whose key the trust
 * store holds, as the original's `verify_item` requires of every dependency. The trust comes from
 * the spaces given (a bundle run leaves its checkout's project out, so the checkout cannot vouch for
 * itself), the pinned keys and this machine's signing key, as `rye build --verify-sources` builds it.
 */
import { createHash } from "node:crypto";
import { trustForSpaces } from "../builder/signing.js";
import type { SpaceRoot, TrustStore } from "../sign/trust-store.js";
import { verifyItem } from "../sign/verify-item.js";
import type { DepFile } from "../runtime/exec/verify-deps.js";

/** Where a dependency verifier's trust comes from. */
export interface DependencyTrust {
  spaces: SpaceRoot[];
  env: NodeJS.ProcessEnv;
  trustedKeys?: readonly string[];
  cwd?: string;
  /** Files the bundle vouches for by hash (absolute path → SHA-256 of the text), e.g. every bundled tool's chain files. */
  vouched?: ReadonlyMap<string, string>;
}

const sha256 = (text: string) => createHash("sha256").update(text.replace(/^\uFEFF/, ""), "utf8").digest("hex");

/** A `verifyDependency` for `executePlan`: throws the original's message for an unsigned, modified or untrusted file. */
export function dependencyVerifier(t: DependencyTrust): (file: DepFile) => void {
  let trust: TrustStore | undefined;
  return (file) => {
    const hash = t.vouched?.get(file.absolutePath);
    if (hash !== undefined && hash === sha256(file.text)) return;
    trust ??= trustForSpaces(t.spaces, t.env, t.trustedKeys ?? [], t.cwd ?? process.cwd());
    const result = verifyItem(file.text, "tool", trust, { path: file.absolutePath });
    if (!result.ok) throw new Error(result.message);
  };
}

/**
 * The scope a bundle run verifies when the tool's runtime enables no `verify_deps`: every file of the
 * tool's folder, recursively, that an interpreter could import from it (Python puts the script's
 * folder first on sys.path; Node resolves relative imports from it). A sourceless `.pyc` beside the
 * script cannot be signed, so it is refused; `__pycache__` is left out because a bundle run points
 * Python's cache elsewhere (PYTHONPYCACHEPREFIX, `bundleToolOptions`), so the folder's caches are never read.
 */
export const BUNDLE_DEPS_SCOPE: Readonly<Record<string, unknown>> = {
  enabled: true,
  scope: "tool_dir",
  recursive: true,
  extensions: [".py", ".pyc", ".pyo", ".pyw", ".pth", ".so", ".pyd", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".node", ".pl", ".pm", ".rb", ".sh"],
  exclude_dirs: [".git", "node_modules", "__pycache__"],
};
