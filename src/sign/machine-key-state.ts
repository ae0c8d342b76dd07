// Whether this machine's signing key may still sign. A key its owner revoked or let expire in the
// user space's trust entries signs output that every verifier refuses, so a build, bundle or sign
// that used it would exit 0 with output nothing accepts: they refuse it first and say how to rotate.
// The entries are parsed (and their TOML reader loaded) only when the user space holds any, so a
// no-op build of a user without entries stays as light as before.
import { existsSync, readdirSync } from "node:fs";
import { readRegularText } from "../project/read-regular.js";
import { join, resolve } from "node:path";
import { fingerprint, signingKeyDir, TRUST_DIRS, userSpace } from "./keys.js";


const hasEntries = (space: string) =>
  TRUST_DIRS.some((d) => {
    try {
      return readdirSync(join(space, ...d)).some((n) => n.endsWith(".toml"));
    } catch {
      return false;
    }
  });

/** Why this machine's key may not sign now (revoked, expired, not yet valid), or null. */
export async function machineKeyRefusal(env: NodeJS.ProcessEnv, cwd: string, now = new Date()): Promise<string | null> {
  const pem = join(signingKeyDir(env), "public_key.pem");
  const space = resolve(cwd, userSpace(env));
  if (!existsSync(pem) || !hasEntries(space)) return null;
  const [{ trustEntries, limitsOf }, { keyRefusal }] = await Promise.all([import("./trust-entries.js"), import("./key-lifecycle.js")]);
  const fp = fingerprint(readRegularText(pem, { kind: "key", link: { links: "follow" } }));
  const entries = trustEntries(space);
  // Fail closed: the entry that cannot be read may be this key's revocation.
  const unreadable = entries.find((e) => e.unreadable);
  if (unreadable) return `the trust entry ${unreadable.path} cannot be read (${unreadable.problem}), so whether this key was revoked cannot be told. Remove it or make it a regular .toml file, then build again.`;
  // The same reader and limits verification uses: an entry that does not parse or authenticate refuses its key here too.
  const refusal = keyRefusal(fp, limitsOf(entries, fp), now);
  return refusal && `${refusal}. Make a new signing key with rye keys rotate, then build again.`;
}
