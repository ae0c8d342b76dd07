/**
 * `verify(path)`: the one verifier behind `rye verify`, `rye run`, the Node loader and the bundler
 * plugins. A folder is a built output folder (or give its manifest.json); a file is a bundle, with
 * its detached `.sig` beside it checked too when present. Trust comes only from the anchors of
 * trust-anchors.ts, never from the checked tree.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { TrustStore } from "../sign/trust-store.js";
import { loadTrustAnchors, type TrustAnchors } from "./trust-anchors.js";
import { verifyBundleBytes, type BundleVerification } from "./verify-bundle.js";
import { verifyOutputDir, type OutputVerification } from "./verify-output.js";

/** Options for `verify`. */
export interface VerifyOptions {
  /** Extra anchor keys: .pem/.toml files or folders of them (as `--trusted-key`). */
  trustedKeys?: readonly string[];
  /** Read for RYE_TRUSTED_KEYS, RYE_SIGNING_KEY_DIR and USER_SPACE; default process.env. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Use exactly these keys instead of loading the anchors. */
  trust?: TrustStore;
}

/** What `verify` found: `ok`, the problems in words, and the details of the output folder or bundle. */
export interface VerifyResult {
  ok: boolean;
  kind: "output" | "bundle";
  path: string;
  problems: string[];
  /** The key that signed it, when the signature verified. */
  signer: { fingerprint: string; source: string; owner: string | null } | null;
  output?: OutputVerification;
  bundle?: BundleVerification;
  anchors: TrustAnchors | null;
}

function signerOf(trust: TrustStore, fp: string | undefined) {
  const key = fp ? trust.get(fp) : undefined;
  return key ? { fingerprint: key.fingerprint, source: key.source, owner: key.owner ?? null } : null;
}

/** Verifies a built output folder or a bundle at `path`. */
export async function verify(path: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const cwd = options.cwd ?? process.cwd();
  const target = resolve(cwd, path);
  const isDir = existsSync(target) && statSync(target).isDirectory();
  const checked = !isDir && basename(target) === "manifest.json" ? dirname(target) : target;
  const anchors = options.trust ? null : loadTrustAnchors({ checkedPath: checked, trustedKeys: options.trustedKeys, env: options.env, cwd });
  const trust = options.trust ?? anchors!.store;
  if (checked !== target || isDir) {
    const output = await verifyOutputDir(checked, trust, `${path.replace(/[\\/]+$/, "").replace(/[\\/]manifest\.json$/, "")}/manifest.json`);
    const signer = output.manifest.ok ? signerOf(trust, output.manifest.signature?.fingerprint) : null;
    return { ok: output.ok, kind: "output", path: checked, problems: output.problems, signer, output, anchors };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(target);
  } catch (e) {
    return { ok: false, kind: "bundle", path: target, problems: [`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`], signer: null, anchors };
  }
  const sig = existsSync(`${target}.sig`) ? readFileSync(`${target}.sig`) : null;
  const bundle = verifyBundleBytes(bytes, trust, path, sig);
  const signer = bundle.ok ? signerOf(trust, bundle.inline.signature?.fingerprint) : null;
  return { ok: bundle.ok, kind: "bundle", path: target, problems: bundle.problems, signer, bundle, anchors };
}
