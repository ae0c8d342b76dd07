/**
 * `verify(path)`: the one verifier behind `rye verify`, `rye run`, the Node loader and the bundler
 * plugins. A folder is a built output folder (or give its manifest.json); a file is a bundle, with
 * its detached `.sig` beside it checked too when present. Trust comes only from the anchors of
 * trust-anchors.ts, never from the checked tree.
 */
import { existsSync, statSync } from "node:fs";
import { readRegular, Unreadable } from "../project/read-regular.js";
import { basename, dirname, resolve } from "node:path";
import { parseBundleMetadata } from "../sign/bundle-metadata.js";
import type { BuildInfo } from "../sign/sign-manifest.js";
import { createTrustStore, type TrustStore } from "../sign/trust-store.js";
import { freshnessProblems, type BuildStamp, type FreshnessOptions } from "./freshness.js";
import { loadTrustAnchors, type TrustAnchors } from "./trust-anchors.js";
import { verifyBundleBytes, type BundleVerification } from "./verify-bundle.js";
import { verifyOutputDir, type OutputVerification } from "./verify-output.js";

/** Options for `verify`. */
export interface VerifyOptions extends FreshnessOptions {
  /** Extra anchor keys: .pem/.toml files or folders of them (as `--trusted-key`). */
  trustedKeys?: readonly string[];
  /** Read for RYE_TRUSTED_KEYS, RYE_SIGNING_KEY_DIR and USER_SPACE; default process.env. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Use exactly these keys instead of loading the anchors. */
  trust?: TrustStore;
  /** The time trusted keys' expiry and not-before limits are judged at (default: now). */
  now?: Date;
}

/** What `verify` found: `ok`, the problems in words, and the details of the output folder or bundle. */
export interface VerifyResult {
  ok: boolean;
  kind: "output" | "bundle";
  path: string;
  problems: string[];
  /** What the signed metadata says of the build (time, counter, source-tree sha256), when the signature verified. */
  build: BuildStamp | null;
  /** The key that signed it, when the signature verified. */
  signer: { fingerprint: string; source: string; owner: string | null } | null;
  output?: OutputVerification;
  bundle?: BundleVerification;
  anchors: TrustAnchors | null;
}

/** The compiler and options a signed `build` names (format 4), for the stamp. */
function identityOf(build: BuildInfo): Pick<BuildStamp, "compiler" | "options"> {
  return build.compiler && build.options ? { compiler: build.compiler, options: build.options } : {};
}

function signerOf(trust: TrustStore, fp: string | undefined) {
  const key = fp ? trust.get(fp) : undefined;
  return key ? { fingerprint: key.fingerprint, source: key.source, owner: key.owner ?? null } : null;
}

/** Verifies a built output folder or a bundle at `path`. */
export async function verify(path: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const target = resolve(cwd, path);
  const isDir = existsSync(target) && statSync(target).isDirectory();
  const checked = !isDir && basename(target) === "manifest.json" ? dirname(target) : target;
  const anchors = options.trust ? null : loadTrustAnchors({ checkedPath: checked, trustedKeys: options.trustedKeys, env: options.env, cwd, now: options.now });
  const given = options.trust && options.now ? createTrustStore(options.trust.list(), [...options.trust.warnings], options.now, options.trust.unreadable) : options.trust;
  const trust = given ?? anchors!.store;
  const fresh = async (stamp: BuildStamp | null, label: string, outputDir: string): Promise<string[]> => {
    if (options.notBefore === undefined && !options.current) return [];
    if (!stamp) return [`${label} carries no build metadata, so its freshness cannot be checked\n  Fix: rebuild it with this rye`];
    return freshnessProblems(stamp, options, { label, outputDir, env, cwd, kind: checked !== target || isDir ? "output" : "bundle" });
  };
  if (checked !== target || isDir) {
    const label = `${path.replace(/[\\/]+$/, "").replace(/[\\/]manifest\.json$/, "")}/manifest.json`;
    const output = await verifyOutputDir(checked, trust, label);
    const root = output.manifest.ok ? output.manifest.manifest : null;
    const build = root ? { time: root.generated_at, counter: root.build.counter, sources: root.build.sources, ...(output.sourceList === undefined ? {} : { list: output.sourceList }), ...identityOf(root.build) } : null;
    if (output.ok) output.problems.push(...(await fresh(build, label, checked)));
    output.ok = output.problems.length === 0;
    const signer = output.manifest.ok ? signerOf(trust, output.manifest.signature?.fingerprint) : null;
    return { ok: output.ok, kind: "output", path: checked, problems: output.problems, build, signer, output, anchors };
  }
  let bytes: Buffer;
  let sig: Buffer | null;
  try {
    // Named by whoever runs the check: a link is followed, but only a regular file of bounded size is read.
    bytes = readRegular(target, { kind: "output", link: { links: "follow" } });
    sig = existsSync(`${target}.sig`) ? readRegular(`${target}.sig`, { kind: "key", link: { links: "follow" } }) : null;
  } catch (e) {
    const where = e instanceof Unreadable ? `${e.path}: ${e.reason}` : `${path}: ${(e as Error).message}`;
    return { ok: false, kind: "bundle", path: target, problems: [`Cannot read ${where}`], build: null, signer: null, anchors };
  }
  const bundle = verifyBundleBytes(bytes, trust, path, sig);
  const meta = bundle.ok ? parseBundleMetadata(bytes.toString("utf8")) : null;
  const build = meta ? { time: meta.generated_at, counter: meta.counter, sources: meta.sources, ...(meta.compiler ? { compiler: meta.compiler } : {}) } : null;
  if (bundle.ok) bundle.problems.push(...(await fresh(build, path, dirname(target))));
  bundle.ok = bundle.problems.length === 0;
  const signer = bundle.ok ? signerOf(trust, bundle.inline.signature?.fingerprint) : null;
  return { ok: bundle.ok, kind: "bundle", path: target, problems: bundle.problems, build, signer, bundle, anchors };
}
