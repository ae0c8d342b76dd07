/**
 * Verifies a built output folder against trust anchors: the manifest's signature once, then every
 * file by its sha256 as the manifest binds it to its path and item. An edited, swapped, missing or
 * unlisted file fails, as does a symbolic link anywhere inside (it could lead the reader elsewhere).
 */
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { ItemVerification } from "../sign/verify-item.js";
import { shardPath, splitPath, verifyManifest, type Manifest } from "../sign/sign-manifest.js";
import type { TrustStore } from "../sign/trust-store.js";
import { FileHashes } from "./file-hashes.js";
import { allowedUnlisted, isBundleFile, MANIFEST } from "./output-files.js";
import { isProblem, ShardReader, type ListedFile } from "./read-shards.js";
import { pendingJournal } from "../output/journal.js";

/** One file's outcome. `path` is relative to the output folder, with `/`. */
export interface FileCheck {
  path: string;
  itemId: string | null;
  status: "verified" | "modified" | "missing" | "unlisted" | "not-a-file";
  expected: string | null;
  actual: string | null;
  /** Set for a shard of the manifest: the folder it lists (its files are not checked when it fails). */
  shardOf?: string;
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
  if (f.shardOf !== undefined && f.status !== "verified") {
    return `${f.status === "missing" ? "Missing" : "Differs from the signed manifest"}: ${f.path} (the shard listing ${f.shardOf}/, so none of its files can be checked)`;
  }
  switch (f.status) {
    case "modified": return `Differs from the manifest: ${label}`;
    case "missing": return `Missing: ${label}`;
    case "unlisted": return `Not listed in the signed manifest: ${label}`;
    case "not-a-file": return `A symbolic link, not a file rye build writes: ${label}`;
    default: return "";
  }
}

/**
 * Every file the manifest lists, from the root and each shard; a shard that is missing or differs
 * from what the root binds is reported once, as a file of the manifest, and its folder is `broken`.
 */
function listedFiles(shards: ShardReader, result: OutputVerification): { listed: Map<string, ListedFile>; broken: Set<string> } {
  const listed = new Map<string, ListedFile>();
  const broken = new Set<string>();
  for (const [name, sha256] of Object.entries(shards.manifest.files)) listed.set(name, { sha256, itemId: null });
  for (const folder of Object.keys(shards.manifest.shards)) {
    const shard = shards.shard(folder)!;
    if (isProblem(shard)) {
      broken.add(folder);
      result.files.push({ path: shard.path, itemId: null, status: shard.status === "missing" ? "missing" : "modified", expected: shard.expected, actual: shard.actual, shardOf: folder });
      continue;
    }
    const sha = shards.manifest.shards[folder]!;
    result.files.push({ path: shardPath(folder), itemId: null, status: "verified", expected: sha, actual: sha, shardOf: folder });
    const mirrored = folder === "ts" || folder.startsWith("ts/");
    for (const [name, sha256] of Object.entries(shard.files)) {
      const rel = `${folder}/${name}`;
      // An item's files sit beside its module, except its TypeScript source under ts/.
      const m = moduleName(name);
      const module = mirrored || !Object.hasOwn(shard.items, m) ? undefined : shard.items[m];
      listed.set(rel, { sha256, itemId: mirrored ? shards.itemOf(rel) : module ? module[0] : null });
    }
  }
  return { listed, broken };
}

/** The module file name an item's file belongs to: `a.d.ts`, `a.ts`, `a.mjs` → `a.js`. */
function moduleName(name: string): string {
  for (const ext of [".d.ts", ".ts", ".mjs"]) if (name.endsWith(ext)) return `${name.slice(0, -ext.length)}.js`;
  return name;
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
  const manifest = verifyManifest(text || "{}", trust, label);
  if (!text) manifest.message = `No ${MANIFEST} in ${dir}: not a signed build output (or its manifest was removed)\n  Fix: rebuild with rye build`;
  const result: OutputVerification = { ok: false, dir: root, manifest, files: [], bundles: [], problems: [] };
  if (!manifest.ok || !manifest.manifest) {
    result.problems.push(manifest.message);
    return result;
  }
  const shards = new ShardReader(root, manifest.manifest);
  const { listed, broken } = listedFiles(shards, result);
  // Paths built by concatenation (every platform takes "/"): path.join costs more than hashing a small file.
  const at = (rel: string) => `${root}/${rel}`;
  const hashes = new FileHashes();
  // Listed files are hashed on other threads while this one lists the folder.
  const hashing = hashes.prefetch([...listed.keys()].map(at));
  const tree = listTree(root);
  const ahead = await hashing;
  let i = 0;
  for (const entry of listed.values()) entry.actual = ahead[i++] ?? undefined;
  const seen = new Set<string>();
  const links = new Set(tree.links);
  for (const rel of [...tree.links].sort()) result.files.push({ path: rel, itemId: listed.get(rel)?.itemId ?? null, status: "not-a-file", expected: null, actual: null });
  for (const rel of tree.files.sort()) {
    const entry = listed.get(rel);
    if (!entry) {
      // A file of a folder whose shard failed is neither listed nor unlisted: the shard is the problem.
      if (shards.shardPaths.has(rel) || broken.has(splitPath(rel)[0])) continue;
      if (isBundleFile(rel)) result.bundles.push(rel);
      else if (!allowedUnlisted(rel, join(root, rel))) result.files.push({ path: rel, itemId: null, status: "unlisted", expected: null, actual: null });
      continue;
    }
    seen.add(rel);
    const actual = entry.actual ?? hashes.of(at(rel));
    result.files.push({ path: rel, itemId: entry.itemId, status: actual === entry.sha256 ? "verified" : "modified", expected: entry.sha256, actual });
  }
  for (const [rel, entry] of listed) {
    if (!seen.has(rel) && !links.has(rel)) result.files.push({ path: rel, itemId: entry.itemId, status: "missing", expected: entry.sha256, actual: null });
  }
  const bad = result.files.filter((f) => f.status !== "verified");
  if (bad.length > 0) result.problems.push(`Files do not match the signed manifest ${label}:\n${bad.map((f) => `  ${describe(f)}`).join("\n")}\n  Fix: rebuild with rye build`);
  result.ok = result.problems.length === 0;
  return result;
}
