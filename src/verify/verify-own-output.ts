// What `rye bundle` checks before it signs a bundle of out/: that out/ holds exactly what this
// machine's build signed. A build that found nothing to do trusts file metadata, so a file of out/
// edited in place since would otherwise be bundled and signed as if it were the build's.
import type { SigningKey } from "../sign/keys.js";
import { createTrustStore } from "../sign/trust-store.js";
import { verify } from "./verify.js";

/** The problems that keep `outDir` from being bundled, or none. Only `key` (the bundle's signer) vouches. */
export async function verifyOwnOutput(outDir: string, key: SigningKey): Promise<string[]> {
  const trust = createTrustStore([{ fingerprint: key.fingerprint, owner: "this machine", publicPem: key.publicPem, source: "this machine's signing key" }]);
  const result = await verify(outDir, { trust });
  return result.ok ? [] : result.problems;
}
