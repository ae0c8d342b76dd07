/**
 * A bundle's build metadata (decisions.md #26): one comment line near its top,
 * `// @rye-build {"version":…,"generated_at":…,"counter":…,"sources":…,"compiler":…}`, copied from the signed root
 * manifest of the output it was made from. Every byte of a bundle is signed, so the line is as
 * authenticated as the code; it is read only after the signature verified.
 */
import type { CompilerIdentity } from "./compiler-identity.js";
import type { Manifest } from "./sign-manifest.js";

const PREFIX = "// @rye-build ";

/** What a bundle says of the build it was made from. */
export interface BundleMetadata {
  version: string | number;
  generated_at: string;
  counter: number;
  sources: string;
  /** The compiler that built the output (absent in a bundle of format 3 output). */
  compiler?: CompilerIdentity;
}

/** The metadata line for a bundle of the output whose verified root is `root` (no newline). */
export function bundleMetadataLine(root: Manifest): string {
  // The output options are not copied: they decide files beside the modules (ts/, index.d.ts), none of which a bundle holds.
  const m: BundleMetadata = { version: root.version, generated_at: root.generated_at, counter: root.build.counter, sources: root.build.sources, ...(root.build.compiler ? { compiler: root.build.compiler } : {}) };
  return `${PREFIX}${JSON.stringify(m)}`;
}

/** The metadata of a bundle's text (looked for in its first lines only), or null when it has none or it does not parse. */
export function parseBundleMetadata(text: string): BundleMetadata | null {
  const head = text.slice(0, 4096).split("\n", 8);
  const line = head.find((l) => l.startsWith(PREFIX));
  if (!line) return null;
  try {
    const m = JSON.parse(line.slice(PREFIX.length)) as Partial<BundleMetadata>;
    const sha = (h: unknown) => typeof h === "string" && /^[a-f0-9]{64}$/.test(h);
    const c = m.compiler;
    const compilerOk = c === undefined || (typeof c === "object" && c !== null && typeof c.version === "string" && sha(c.code) && sha(c.runtime));
    const ok = typeof m.generated_at === "string" && Number.isSafeInteger(m.counter) && sha(m.sources) && compilerOk;
    return ok ? (m as BundleMetadata) : null;
  } catch {
    return null;
  }
}
