// The build time signed into the output (decisions.md #16: never the clock). It decides what
// `rye verify --not-before` accepts, so a checkout must not be able to choose it: a source's
// signature line counts only when its signature verifies with a key from outside the checkout
// (the anchors `rye verify` uses: keys pinned by RYE_TRUSTED_KEYS, this machine's signing key, the
// user space's trust store when the user space lies outside the project). A forged
// `rye:signed:2099-…` line is text, not a time.
import type { SourceFile } from "../model/source.js";
import type { TrustStore } from "../sign/trust-store.js";
import { verifyItem } from "../sign/verify-item.js";
import { loadTrustAnchors } from "../verify/trust-anchors.js";
import type { Io } from "../host.js";
import { join, resolve } from "node:path";

/** The fingerprint a signature line names (its last field), without parsing the rest. */
const FINGERPRINT = /^(?:#![^\n]*\n)?(?:<!--|#|\/\/) rye:signed:[^\n]*:([0-9a-f]{16})(?: -->)?[ \t]*(?:\n|$)/;

/** Keys from outside the checkout that may vouch for a source's signature time, loaded on first use. */
export type TrustLoader = () => TrustStore;

/** The trust anchors `rye verify` would use for the project's output, loaded once, when first asked. */
export function outsideTrust(io: Io, project: string): TrustLoader {
  let trust: TrustStore | undefined;
  // Checked as the project's output folder, so "the project that holds it" is the project itself.
  return () => (trust ??= loadTrustAnchors({ checkedPath: join(resolve(io.cwd, project), "out"), env: io.env, cwd: io.cwd }).store);
}

/**
 * The newest signature time among `candidates` (stamp → sources carrying it) whose signature
 * verifies with a key of `trust`, or null. Newest first, so usually one verification is enough; a
 * line naming a key `trust` does not hold costs no cryptography.
 */
export function newestVouched(candidates: ReadonlyMap<string, Iterable<SourceFile>>, trust: TrustLoader): string | null {
  for (const stamp of [...candidates.keys()].sort().reverse()) {
    for (const source of candidates.get(stamp)!) {
      const fp = FINGERPRINT.exec(source.text)?.[1];
      if (fp === undefined || trust().get(fp) === undefined) continue;
      if (verifyItem(source.text, source.kind, trust(), { path: source.path }).ok) return stamp;
    }
  }
  return null;
}
