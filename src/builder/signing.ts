import { existsSync } from "node:fs";
import { machineAnchors } from "../runtime/integrity.js";
import { createTrustStore, loadTrustStore, trustStoreFromPems, type SpaceRoot, type TrustStore } from "../sign/trust-store.js";
import { join } from "node:path";
import type { SourceFile } from "../compile/source.js";
import { fingerprint, generateKeyPair, loadSigningKey, signingKeyDir, signingKeyFrom, writeKeyPair, type SigningKey } from "../sign/keys.js";
import { buildTimestamp, signOutput, type OutputSource } from "../sign/sign-output.js";
import { sourceTimestamp, timestampFromEnv } from "../sign/sign-item.js";
import { signModule } from "../sign/sign-module.js";
import { VERSION } from "../version.js";
import type { Io } from "../host.js";

/** The signing key of this machine; generated on first use, saying how to trust it elsewhere. */
export function signingKey(io: Io): SigningKey {
  const dir = signingKeyDir(io.env);
  if (!existsSync(join(dir, "private_key.pem"))) {
    const pair = generateKeyPair();
    writeKeyPair(dir, pair);
    io.stderr.write(
      `Generated a signing key in ${dir} (fingerprint ${fingerprint(pair.publicPem)}).\n` +
        `Output signed with it is trusted on this machine. To trust it elsewhere (CI, other users):\n` +
        `  rye keys trust --space <project> ${join(dir, "public_key.pem")}   or set RYE_TRUSTED_KEYS=${join(dir, "public_key.pem")}\n`,
    );
  }
  return loadSigningKey(dir);
}

/** The build timestamp from SOURCE_DATE_EPOCH or the sources' own signatures, never the clock. */
export function timestampFor(sources: readonly SourceFile[], io: Io): string {
  return buildTimestamp(timestampFromEnv(io.env), sources.map((s) => sourceTimestamp(s.text)));
}

/** Signs a build's output with this machine's key and adds the signed manifest. */
export function signBuild(files: ReadonlyMap<string, string>, sources: readonly SourceFile[], io: Io, key?: SigningKey): Map<string, string> {
  const bySource = new Map<string, OutputSource>();
  for (const s of sources) {
    if ((s.space ?? "project") !== "project") continue;
    const dir = s.kind === "directive" ? "directives" : s.kind === "knowledge" ? "knowledge" : "tools";
    bySource.set(`${dir}/${s.id}.js`, { itemId: s.id, text: s.text });
  }
  return signOutput(files, key ?? signingKey(io), timestampFor(sources, io), bySource, VERSION);
}

/** Signs one file's text (the bundle) with this machine's key. */
export function signText(text: string, sources: readonly SourceFile[], io: Io): string {
  return signModule(text, signingKey(io), timestampFor(sources, io));
}

/** The warning `--allow-unsigned` prints: unsigned output fails every verification. */
export const UNSIGNED_WARNING =
  "warning: --allow-unsigned: the output is NOT signed and fails rye verify; never ship it.\n";

/** The spaces' trust stores plus the keys compiled modules trust on this machine (RYE_TRUSTED_KEYS, its own key). */
export function trustForSpaces(spaces: SpaceRoot[], env: NodeJS.ProcessEnv): TrustStore {
  const stores = loadTrustStore(spaces);
  const machine = trustStoreFromPems(machineAnchors(env), "this machine", "RYE_TRUSTED_KEYS or the signing key").list();
  return createTrustStore([...stores.list(), ...machine], [...stores.warnings]);
}

/** A key that lives only in memory: `--check` signs with it so it never creates or needs a real key. */
export function throwawayKey(): SigningKey {
  return signingKeyFrom(generateKeyPair().privatePem);
}

const MODULE_SIGNATURE = /^\/\/ rye:signed:[^\n]*\n/;

/**
 * A file's content with its signature material removed, so `--check` compares what was built, not
 * who signed it or when: a CI machine with another key (or none) sees the same output as up to date.
 */
export function unsignedView(rel: string, text: string): string {
  if (rel === "manifest.json") {
    try {
      // Hashes of signed files change with the key and timestamp; which files an item produced does not.
      const { version, modules, files } = JSON.parse(text) as { version: unknown; modules: Array<Record<string, unknown>>; files?: Array<Record<string, unknown>> };
      return JSON.stringify({
        version,
        modules: modules.map(({ path, item_id, source_sha256 }) => ({ path, item_id, source_sha256 })),
        files: files?.map(({ path, item_id }) => ({ path, item_id })) ?? null,
      });
    } catch {
      return text;
    }
  }
  return text.replace(MODULE_SIGNATURE, "");
}
