import { sign as cryptoSign } from "node:crypto";
import { existsSync } from "node:fs";
import { pinnedKeys, userSpaceFor, userSpaceSigningKey } from "../verify/trust-anchors.js";
import { createTrustStore, loadTrustStore, type SpaceRoot, type TrustStore } from "../sign/trust-store.js";
import { join } from "node:path";
import type { SourceFile } from "../model/source.js";
import { factsOf } from "../project/source-facts.js";
import { fingerprint, generateKeyPair, loadSigningKey, signingKeyDir, signingKeyFrom, writeKeyPair, type SigningKey } from "../sign/keys.js";
import { buildTimestamp, signOutput, type OutputSource } from "../sign/sign-output.js";
import { MANIFEST, SHARD_DIR } from "../sign/sign-manifest.js";
import { sourceTimestamp, timestampFromEnv } from "../sign/sign-item.js";
import { signModule } from "../sign/sign-module.js";
import { VERSION } from "../version.js";
import type { Io } from "../host.js";
import type { BuildMetadata } from "../sign/source-tree.js";
import { newestVouched, outsideTrust } from "./vouched-time.js";

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
 * The build timestamp from SOURCE_DATE_EPOCH, else the newest source signature that a key from
 * outside the checkout vouches for (vouched-time.ts), never the clock.
 */
export function timestampFor(sources: readonly SourceFile[], io: Io): string {
  const candidates = new Map<string, SourceFile[]>();
  for (const s of sources) {
    const stamp = stampOf(s);
    if (stamp !== null) candidates.set(stamp, [...(candidates.get(stamp) ?? []), s]);
  }
  return buildTimestamp(timestampFromEnv(io.env), [vouchedAmong(candidates, io)]);
}

/** The newest source signature time that the trust anchors of `rye verify` vouch for. */
function vouchedAmong(candidates: ReadonlyMap<string, Iterable<SourceFile>>, io: Io): string | null {
  if (candidates.size === 0 || timestampFromEnv(io.env)) return null;
  return newestVouched(candidates, outsideTrust(io, io.cwd));
}

/**
 * The build timestamp of a long-lived process (--watch), kept across rebuilds: the sources are kept
 * by their signature timestamps, so an edit updates the candidates without reading every source again.
 */
export class SourceStamps {
  private readonly byStamp = new Map<string, Set<SourceFile>>();

  constructor(sources: readonly SourceFile[]) {
    for (const s of sources) this.add(s);
  }

  /** `before` was replaced by `after`. */
  edit(before: SourceFile, after: SourceFile): void {
    const stamp = stampOf(before);
    const set = stamp === null ? undefined : this.byStamp.get(stamp);
    set?.delete(before);
    if (set?.size === 0) this.byStamp.delete(stamp!);
    this.add(after);
  }

  /** What `timestampFor` says of the sources kept. */
  timestamp(io: Io): string {
    return buildTimestamp(timestampFromEnv(io.env), [vouchedAmong(this.byStamp, io)]);
  }

  private add(s: SourceFile): void {
    const stamp = stampOf(s);
    if (stamp === null) return;
    let set = this.byStamp.get(stamp);
    if (!set) this.byStamp.set(stamp, (set = new Set()));
    set.add(s);
  }
}

/** The timestamp of a source's own signature line, known without its text when it was read to be read again. */
function stampOf(s: SourceFile): string | null {
  const read = factsOf(s);
  return read ? read.stamp : sourceTimestamp(s.text);
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
