/**
 * The keys that may vouch for build output and bundles. They come from outside the artifact and
 * outside the checked-out tree, so whoever can write the artifact (a pull request, a compromised
 * cache) cannot also make it trusted:
 *   1. keys pinned by whoever runs the check: `--trusted-key FILE` and `RYE_TRUSTED_KEYS`;
 *   2. this machine's signing key (`$RYE_SIGNING_KEY_DIR/public_key.pem`, else the user space's);
 *   3. the user space's trust store (`.ai/config/keys/trusted/`, `.ai/trusted_keys/`).
 * Keys in the project's `.ai/`, in the output folder, in a bundle or in an ancestor folder are never
 * read. The user space (2, 3 when not pinned by RYE_SIGNING_KEY_DIR) is refused when it could be part
 * of the checkout that holds the checked path: see `userSpaceRefusal`.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fingerprint, publicKeyPem, TRUST_DIRS, userSpace } from "../sign/keys.js";
import { authenticate, judgeEntryText } from "../sign/trust-entry.js";
import { createTrustStore, loadTrustStore, type TrustedKey, type TrustStore, type UnreadableEntry } from "../sign/trust-store.js";
import { readRegularText } from "../project/read-regular.js";
import { OUTSIDE_ADVICE, userSpaceRefusal } from "./user-space-refusal.js";

export { userSpaceRefusal };

/** Where the anchors are looked up. */
export interface TrustAnchorOptions {
  /** The output folder or bundle being checked; the user space must lie outside its checkout. */
  checkedPath: string;
  /** `--trusted-key` files (or folders of .pem/.toml files), relative to `cwd`. */
  trustedKeys?: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The time keys' expiry and not-before limits are judged at (default: the clock at each check). */
  now?: Date;
}

/** The anchors, with the reasons any candidate key or store was skipped. */
export interface TrustAnchors {
  store: TrustStore;
  /** Every place consulted, for messages: "RYE_TRUSTED_KEYS /ci/key.pem", "user space /home/me (refused: …)". */
  consulted: string[];
  warnings: string[];
}


/** Public keys in a .pem file, or in a trusted-key .toml (whose own fingerprint is recomputed). */
function keysIn(path: string, source: string): TrustedKey[] {
  // Named by whoever runs the check (a flag, RYE_TRUSTED_KEYS, the signing key folder): links followed, still regular and bounded.
  const text = readRegularText(path, { kind: "key", link: { links: "follow" } }).replace(/\r\n?/g, "\n");
  if (path.endsWith(".toml")) return pinnedEntry(text, path, source);
  const pems = [...text.matchAll(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g)].map((m) => publicKeyPem(m[0]));
  if (pems.length === 0) throw new Error("no PUBLIC KEY block");
  return pems.map((publicPem) => ({ fingerprint: fingerprint(publicPem), owner: source, publicPem, source, path }));
}

/**
 * A pinned trusted-key .toml, read by the same entry reader as a space's store: one that names a key
 * but does not parse or authenticate refuses that key (whatever other anchor brings it), never just
 * drops its limits. One that names no key is skipped with a warning (the caller's).
 */
function pinnedEntry(text: string, path: string, source: string): TrustedKey[] {
  const warnings: string[] = [];
  const judged = judgeEntryText(text, path, source).map((e) => authenticate(e, new Map(), warnings));
  const keys = judged.flatMap((e) => (e.key ? [e.key] : []));
  if (keys.length === 0) throw new Error(judged[0]?.problem ?? "no key");
  return keys;
}

/** Keys in a file, or in the .pem/.toml files of a folder (private keys skipped). */
function keysAt(path: string, source: string, warnings: string[], required: boolean): TrustedKey[] {
  if (!existsSync(path)) {
    if (required) warnings.push(`${source}: ${path} does not exist`);
    return [];
  }
  const files = statSync(path).isDirectory()
    ? readdirSync(path).filter((f) => (f.endsWith(".pem") || f.endsWith(".toml")) && !f.startsWith("private")).sort().map((f) => join(path, f))
    : [path];
  const keys: TrustedKey[] = [];
  for (const file of files) {
    try {
      keys.push(...keysIn(file, source));
    } catch (e) {
      warnings.push(`${source}: ${file} skipped: ${(e as Error).message}`);
    }
  }
  return keys;
}

/**
 * Keys pinned by whoever runs the check, wherever they are: `--trusted-key` files, RYE_TRUSTED_KEYS
 * and an explicit RYE_SIGNING_KEY_DIR's public key. (Also the extra anchors for verifying sources.)
 */
export function pinnedKeys(trustedKeys: readonly string[], env: NodeJS.ProcessEnv, cwd: string, warnings: string[], consulted: string[] = []): TrustedKey[] {
  const keys: TrustedKey[] = [];
  for (const p of trustedKeys) {
    const path = resolve(cwd, p);
    consulted.push(`--trusted-key ${path}`);
    keys.push(...keysAt(path, "--trusted-key", warnings, true));
  }
  for (const p of (env.RYE_TRUSTED_KEYS ?? "").split(delimiter).filter(Boolean)) {
    const path = resolve(cwd, p);
    consulted.push(`RYE_TRUSTED_KEYS ${path}`);
    keys.push(...keysAt(path, "RYE_TRUSTED_KEYS", warnings, true));
  }
  if (env.RYE_SIGNING_KEY_DIR) {
    // Named explicitly by whoever runs the check: trusted wherever it is.
    const path = resolve(cwd, env.RYE_SIGNING_KEY_DIR, "public_key.pem");
    consulted.push(`this machine's signing key ${path}`);
    keys.push(...keysAt(path, "this machine's signing key", warnings, false));
  }
  return keys;
}

/** This machine's public signing key in the user space (when RYE_SIGNING_KEY_DIR does not name another). */
export function userSpaceSigningKey(space: string, env: NodeJS.ProcessEnv, warnings: string[], consulted: string[] = []): TrustedKey[] {
  if (env.RYE_SIGNING_KEY_DIR) return [];
  const path = join(space, ".ai", "config", "keys", "signing", "public_key.pem");
  consulted.push(`this machine's signing key ${path}`);
  return keysAt(path, "this machine's signing key", warnings, false);
}

/** The user space a check of `checkedPath` would read, and why it refuses it (null when it does not: see `userSpaceRefusal`). */
export function userSpaceFor(checkedPath: string, env: NodeJS.ProcessEnv, cwd: string): { space: string; refusal: string | null } {
  const space = resolve(cwd, userSpace(env));
  return { space, refusal: userSpaceRefusal(space, resolve(cwd, checkedPath), Boolean(env.USER_SPACE), { cwd }) };
}

/** The trust anchors for checking `checkedPath` (an output folder or a bundle). */
export function loadTrustAnchors(options: TrustAnchorOptions): TrustAnchors {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const warnings: string[] = [];
  const consulted: string[] = [];
  const unreadable: UnreadableEntry[] = [];
  const keys = pinnedKeys(options.trustedKeys ?? [], env, cwd, warnings, consulted);
  const { space, refusal } = userSpaceFor(options.checkedPath, env, cwd);
  if (refusal) {
    consulted.push(`user space ${space} (refused: ${refusal})`);
    warnings.push(`The user space ${space} is not used to verify ${options.checkedPath}: ${refusal}. To verify with it, ${OUTSIDE_ADVICE}.`);
  } else {
    keys.push(...userSpaceSigningKey(space, env, warnings, consulted));
    // Read as the original reads a space's store: each key file's own signature line is checked too.
    for (const d of TRUST_DIRS) consulted.push(`user space trust store ${join(space, ...d)}`);
    const store = loadTrustStore([{ root: space, label: "user space trust store" }]);
    keys.push(...store.list());
    warnings.push(...store.warnings);
    unreadable.push(...store.unreadable);
  }
  return { store: createTrustStore(keys, warnings, options.now, unreadable), consulted, warnings };
}
