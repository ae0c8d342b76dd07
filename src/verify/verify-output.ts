/**
 * Verifies a built output folder against trust anchors: the manifest's signature once, then every
 * file by its sha256 as the manifest binds it to its path and item. An edited, swapped, missing or
 * unlisted file fails, as does a symbolic link anywhere inside (it could lead the reader elsewhere).
 */
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { ItemVerification } from "../sign/verify-item.js";
import { verifyManifest, type Manifest } from "../sign/sign-manifest.js";
import type { TrustStore } from "../sign/trust-store.js";
import { FileHashes } from "./file-hashes.js";
import { allowedUnlisted, isBundleFile, MANIFEST } from "./output-files.js";
import { pendingJournal } from "../output/journal.js";

/** One file's outcome. `path` is relative to the output folder, with `/`. */
export interface FileCheck {
  path: string;
  itemId: string | null;
  status: "verified" | "modified" | "missing" | "unlisted" | "not-a-file";
  expected: string | null;
  actual: string | null;
}

/** The outcome of checking an output folder. */
export interface OutputVerification {
  ok: boolean;
  dir: string;
  manifest: ItemVerification & { manifest: Manifest | null };
  files: FileCheck[];
  /** Bundle files found beside the build (checked on their own signature by the caller). */
  bundles: string[];
  problems: string[];
}

/** Every entry below `dir` by relative path, with symbolic links reported rather than followed. */
export function listTree(dir: string, prefix = "", out: { files: string[]; links: string[] } = { files: [], links: [] }) {
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    // The output writer's work folder (its lock, journal and staging) is not part of any build.
    if (!prefix && e.isDirectory() && e.name === ".rye") continue;
    if (e.isSymbolicLink()) out.links.push(rel);
    else if (e.isDirectory()) listTree(dir, rel, out);
    else out.files.push(rel);
  }
  return out;
}

function describe(f: FileCheck): string {
  const label = f.itemId === null ? f.path : `${f.path} (${f.itemId})`;
  switch (f.status) {
    case "modified": return `Differs from the manifest: ${label}`;
    case "missing": return `Missing: ${label}`;
    case "unlisted": return `Not listed in the signed manifest: ${label}`;
    case "not-a-file": return `A symbolic link, not a file rye build writes: ${label}`;
    default: return "";
  }
}

/** Checks the output folder `dir` (an `out` symlink is followed to the folder it names) against `trust`. */
export async function verifyOutputDir(dir: string, trust: TrustStore, label = MANIFEST): Promise<OutputVerification> {
  const root = realpathSync(dir);
  // A build killed after its commit point leaves a journal: until the next build replays it, the
  // folder may mix two builds, and even files that hash correctly are not one build's output.
  const pending = pendingJournal(root);
  if (pending) {
    const manifest = verifyManifest("{}", trust, label);
    const message = `A build of ${dir} was interrupted while it replaced the output (${pending.journal} is still pending): the folder may hold parts of two builds\n  Fix: run rye build, which completes it before anything else`;
    return { ok: false, dir: root, manifest: { ...manifest, message }, files: [], bundles: [], problems: [message] };
  }
  let text: string;
  try {
    text = readFileSync(join(root, MANIFEST), "utf8");
  } catch {
    text = "";
  }
  const manifest = text
    ? verifyManifest(text, trust, label)
    : verifyManifest("{}", trust, label);
  if (!text) manifest.message = `No ${MANIFEST} in ${dir}: not a signed build output (or its manifest was removed)\n  Fix: rebuild with rye build`;
  const result: OutputVerification = { ok: false, dir: root, manifest, files: [], bundles: [], problems: [] };
  if (!manifest.ok || !manifest.manifest) {
    result.problems.push(manifest.message);
    return result;
  }
  if (!manifest.manifest.files) {
    result.problems.push(`${label} lists item modules only (an older build); rebuild with rye build so it lists every file`);
    return result;
  }
  const listed = new Map(manifest.manifest.files.map((f) => [f.path, f]));
  const tree = listTree(root);
  const hashes = new FileHashes();
  await hashes.prefetch(tree.files.filter((f) => listed.has(f)).map((f) => join(root, f)));
  const seen = new Set<string>();
  for (const rel of [...tree.links].sort()) result.files.push({ path: rel, itemId: listed.get(rel)?.item_id ?? null, status: "not-a-file", expected: null, actual: null });
  for (const rel of tree.files.sort()) {
    const entry = listed.get(rel);
    if (!entry) {
      if (isBundleFile(rel)) result.bundles.push(rel);
      else if (!allowedUnlisted(rel, join(root, rel))) result.files.push({ path: rel, itemId: null, status: "unlisted", expected: null, actual: null });
      continue;
    }
    seen.add(rel);
    const actual = hashes.of(join(root, rel));
    result.files.push({ path: rel, itemId: entry.item_id, status: actual === entry.sha256 ? "verified" : "modified", expected: entry.sha256, actual });
  }
  for (const [rel, entry] of listed) {
    if (!seen.has(rel) && !tree.links.includes(rel)) result.files.push({ path: rel, itemId: entry.item_id, status: "missing", expected: entry.sha256, actual: null });
  }
  const bad = result.files.filter((f) => f.status !== "verified");
  if (bad.length > 0) result.problems.push(`Files do not match the signed manifest ${label}:\n${bad.map((f) => `  ${describe(f)}`).join("\n")}\n  Fix: rebuild with rye build`);
  result.ok = result.problems.length === 0;
  return result;
}
