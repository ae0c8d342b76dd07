import { sign as cryptoSign } from "node:crypto";
import { existsSync } from "node:fs";
import { pinnedKeys, userSpaceFor, userSpaceSigningKey } from "../verify/trust-anchors.js";
import { createTrustStore, loadTrustStore, type SpaceRoot, type TrustStore } from "../sign/trust-store.js";
import { join } from "node:path";
import type { SourceFile } from "../model/source.js";
import { fingerprint, generateKeyPair, loadSigningKey, signingKeyDir, signingKeyFrom, writeKeyPair, type SigningKey } from "../sign/keys.js";
import { buildTimestamp, signOutput, type OutputSource } from "../sign/sign-output.js";
import { MANIFEST, SHARD_DIR } from "../sign/sign-manifest.js";
import { timestampFromEnv } from "../sign/sign-item.js";
import { signModule } from "../sign/sign-module.js";
import { VERSION } from "../version.js";
import type { Io } from "../host.js";
import type { BuildMetadata } from "../sign/source-tree.js";

/**
 * The signing key of this machine; generated on first use, saying how to trust it elsewhere, or,
 * when it is for `outDir` and sits in a user space `rye verify` will not use for it, here too.
 */
export function signingKey(io: Io, outDir?: string): SigningKey {
  const dir = signingKeyDir(io.env);
  if (!existsSync(join(dir, "private_key.pem"))) {
    const pair = generateKeyPair();
    writeKeyPair(dir, pair);
    const pem = join(dir, "public_key.pem");
    // decisions.md #14: a user space inside the checkout never vouches for its output.
    const refused = outDir && !io.env.RYE_SIGNING_KEY_DIR ? userSpaceFor(outDir, io.env, io.cwd).refusal : null;
    io.stderr.write(
      `Generated a signing key in ${dir} (fingerprint ${fingerprint(pair.publicPem)}).\n` +
        (refused
          ? `Output signed with it is not trusted on this machine: rye verify does not use its user space for ${outDir} (${refused}).\n` +
            `Pin its public key where the output is checked: RYE_TRUSTED_KEYS=${pem} or rye verify --trusted-key ${pem}\n`
          : `Output signed with it is trusted on this machine. To trust it elsewhere (CI, other users), pin its public key\n` +
            `there, outside the checkout: RYE_TRUSTED_KEYS=${pem} or rye verify --trusted-key ${pem}\n`),
    );
  }
  return loadSigningKey(dir);
}

/**
 * The build timestamp: SOURCE_DATE_EPOCH, set by whoever runs the build, else the epoch; never the
 * clock (decisions.md #16) and never a source's `rye:signed:` time. That time sits beside the
 * signature, not under it (the original signs the content hash alone), so whoever edits the
 * checkout chooses it even on a line whose signature verifies, and `rye verify --not-before` would
 * then trust a time nobody vouched for.
 */
export function timestampFor(_sources: readonly SourceFile[], io: Io): string {
  return buildTimestamp(timestampFromEnv(io.env));
}

/**
 * The build timestamp of a long-lived process (--watch). It depends on no source (timestampFor),
 * so an edit changes nothing; the class keeps the shape the watch state holds.
 */
export class SourceStamps {
  constructor(_sources: readonly SourceFile[]) {}

  /** `before` was replaced by `after`: the build time does not depend on either. */
  edit(_before: SourceFile, _after: SourceFile): void {}

  /** What `timestampFor` says. */
  timestamp(io: Io): string {
    return timestampFor([], io);
  }
}

/** Where a project item's `.js` module goes. */
export function modulePath(s: SourceFile): string {
  return `${s.kind === "directive" ? "directives" : s.kind === "knowledge" ? "knowledge" : "tools"}/${s.id}.js`;
}

/** Signs a build's output with this machine's key and adds the signed manifest. */
export function signBuild(files: ReadonlyMap<string, string>, sources: readonly SourceFile[], io: Io, key?: SigningKey, build?: BuildMetadata): Map<string, string> {
  const bySource = new Map<string, OutputSource>();
  for (const s of sources) {
    if ((s.space ?? "project") !== "project") continue;
    bySource.set(modulePath(s), { itemId: s.id, text: s.text });
  }
  return signOutput(files, key ?? signingKey(io), timestampFor(sources, io), bySource, VERSION, build);
}

/**
 * A bundle signed twice with this machine's key: the `// rye:signed:` first line (so the file alone
 * names its key), and a detached raw 64-byte Ed25519 signature over every byte of the result,
 * first line included, which `openssl pkeyutl -verify -rawin` checks without rye.
 */
export function signBundle(text: string, sources: readonly SourceFile[], io: Io): { bytes: Buffer; signature: Buffer; publicKeyPath: string } {
  const key = signingKey(io);
  const bytes = Buffer.from(signModule(text, key, timestampFor(sources, io)), "utf8");
  return { bytes, signature: cryptoSign(null, bytes, key.privateKey), publicKeyPath: join(signingKeyDir(io.env), "public_key.pem") };
}

/** The warning `--allow-unsigned` prints: unsigned output fails every verification. */
export const UNSIGNED_WARNING =
  "warning: --allow-unsigned: the output is NOT signed and fails rye verify; never ship it.\n";

/**
 * The trust for verifying *sources* (never build output): the spaces' stores, project → user →
 * system as the original reads them, plus keys pinned by whoever runs the check and this machine's
 * own key. Each key keeps the label of the store that vouched for it.
 */
export function trustForSpaces(spaces: SpaceRoot[], env: NodeJS.ProcessEnv, trustedKeys: readonly string[] = [], cwd = process.cwd()): TrustStore {
  const stores = loadTrustStore(spaces);
  const warnings = [...stores.warnings];
  const user = spaces.find((s) => s.label === "user");
  const machine = [...pinnedKeys(trustedKeys, env, cwd, warnings), ...(user ? userSpaceSigningKey(user.root, env, warnings) : [])];
  return createTrustStore([...stores.list(), ...machine], warnings, undefined, stores.unreadable);
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
  if (rel === MANIFEST || (rel.startsWith(`${SHARD_DIR}/`) && rel.endsWith(".json"))) {
    try {
      // Hashes of signed files change with the key and timestamp; which files and items a build has does not.
      const { version, folder, files, shards, items } = JSON.parse(text) as Record<string, Record<string, unknown> | undefined>;
      return JSON.stringify({ version, folder, files: Object.keys(files ?? {}), shards: shards && Object.keys(shards), items });
    } catch {
      return text;
    }
  }
  return text.replace(MODULE_SIGNATURE, "");
}
