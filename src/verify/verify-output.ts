/**
 * Verifies a built output folder against trust anchors: the manifest's signature once, then every
 * file by its sha256 as the manifest binds it to its path and item. An edited, swapped, missing or
 * unlisted file fails, as does a symbolic link anywhere inside (it could lead the reader elsewhere)
 * and a FIFO, socket or device (never opened).
 */
import { readdirSync, realpathSync } from "node:fs";
import { readRegularText, Unreadable } from "../project/read-regular.js";
import { join } from "node:path";
import type { ItemVerification } from "../sign/verify-item.js";
import { shardPath, splitPath, verifyManifest, type Manifest } from "../sign/sign-manifest.js";
import type { TrustStore } from "../sign/trust-store.js";
import { FileHashes } from "./file-hashes.js";
import { allowedUnlisted, isBundleFile, MANIFEST, MODULE_SCOPE_FILE } from "./output-files.js";
import { isProblem, ShardReader, type ListedFile } from "./read-shards.js";
import { pendingJournal } from "../output/journal.js";
import { sha256Hex } from "../sign/hash-region.js";
import { SOURCES_LIST } from "../sign/source-tree.js";

const MANY_FOLDERS = 20;

/** One file's outcome. `path` is relative to the output folder, with `/`. */
export interface FileCheck {
  path: string;
  itemId: string | null;
  status: "verified" | "modified" | "missing" | "unlisted" | "not-a-file";
  expected: string | null;
  actual: string | null;
  /** Set for a shard of the manifest: the folder it lists (its files are not checked when it fails). */
  shardOf?: string;
  /** For "not-a-file": false when it is not a symbolic link either (a FIFO, socket or device). */
  link?: boolean;
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
  /** The source list the signed root binds (out/manifest/sources.txt), when it matched: what `--current` compares. */
  sourceList?: string;
}

/**
 * Every entry below `dir` by relative path: regular files, symbolic links (reported rather than
 * followed) and anything else (a FIFO, socket or device: never opened, so it cannot hang the check).
 */
export function listTree(dir: string, prefix = "", out: { files: string[]; links: string[]; others: string[] } = { files: [], links: [], others: [] }) {
  for (const e of readdirSync(prefix ? `${dir}/${prefix}` : dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    // The output writer's work folder (its lock, journal and staging) is not part of any build.
    if (!prefix && e.isDirectory() && e.name === ".rye") continue;
    if (e.isFile()) out.files.push(rel);
    else if (e.isDirectory()) listTree(dir, rel, out);
    else if (e.isSymbolicLink()) out.links.push(rel);
    else out.others.push(rel);
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
    case "not-a-file": return `${f.link === false ? "Not a regular file" : "A symbolic link"}, not a file rye build writes: ${label}`;
    default: return "";
  }
}

/**
 * Reads every shard the root binds; a shard that is missing or differs from what the root binds is
 * reported once, as a file of the manifest, and its folder is `broken`. Returns those folders and
 * how many files the root and the good shards list.
 */
function readShards(shards: ShardReader, result: OutputVerification): { broken: Set<string>; listed: number } {
  const broken = new Set<string>();
  let listed = Object.keys(shards.manifest.files).length;
  for (const [folder, sha] of Object.entries(shards.manifest.shards)) {
    const shard = shards.shard(folder)!;
    if (isProblem(shard)) {
      broken.add(folder);
      result.files.push({ path: shard.path, itemId: null, status: shard.status === "missing" ? "missing" : "modified", expected: shard.expected, actual: shard.actual, shardOf: folder });
      continue;
    }
    result.files.push({ path: shardPath(folder), itemId: null, status: "verified", expected: sha, actual: sha, shardOf: folder });
    listed += Object.keys(shard.files).length;
  }
  return { broken, listed };
}

/** Whether the root or a shard it binds may list `rel` (only those files are worth hashing). */
function mayBeListed(manifest: Manifest, rel: string): boolean {
  const at = rel.lastIndexOf("/");
  return at < 0 ? Object.hasOwn(manifest.files, rel) : Object.hasOwn(manifest.shards, rel.slice(0, at));
}

/** What the root or a good shard lists at `rel`: undefined when unlisted (or its shard failed). */
function listedAt(shards: ShardReader, rel: string): ListedFile | undefined {
  const listed = shards.file(rel);
  return listed === undefined || isProblem(listed) ? undefined : listed;
}

/** Every file the root and the good shards list, by path. */
function* allListed(shards: ShardReader): Generator<[string, ListedFile]> {
  for (const rel of Object.keys(shards.manifest.files)) yield [rel, listedAt(shards, rel)!];
  for (const folder of Object.keys(shards.manifest.shards)) {
    const shard = shards.shard(folder)!;
    if (!isProblem(shard)) for (const name of Object.keys(shard.files)) yield [`${folder}/${name}`, listedAt(shards, `${folder}/${name}`)!];
  }
}

/**
 * Adds a check for every entry of `tree` (sorted files) and every listed file it lacks to `result`,
 * in path order: links and other non-files, then files (unlisted ones, and listed ones waiting for
 * their hash at `hashAt` in `tree.files`), then missing ones.
 */
function checkFiles(shards: ShardReader, tree: ReturnType<typeof listTree>, { broken, listed }: { broken: Set<string>; listed: number }, result: OutputVerification) {
  const links = new Set(tree.links);
  const odd = [...tree.links, ...tree.others].sort();
  for (const rel of odd) result.files.push({ path: rel, itemId: listedAt(shards, rel)?.itemId ?? null, status: "not-a-file", expected: null, actual: null, link: links.has(rel) });
  // Two arrays, no object per file.
  const checks: FileCheck[] = [];
  const hashAt: number[] = [];
  for (let i = 0; i < tree.files.length; i++) {
    const rel = tree.files[i]!;
    if (rel === SOURCES_LIST) continue;
    const entry = listedAt(shards, rel);
    if (!entry) {
      // A file of a folder whose shard failed is neither listed nor unlisted: the shard is the problem.
      if (shards.shardPaths.has(rel) || broken.has(splitPath(rel)[0])) continue;
      if (isBundleFile(rel)) result.bundles.push(rel);
      else if (!allowedUnlisted(rel, `${result.dir}/${rel}`)) result.files.push({ path: rel, itemId: null, status: "unlisted", expected: null, actual: null });
      continue;
    }
    const check: FileCheck = { path: rel, itemId: entry.itemId, status: "modified", expected: entry.sha256, actual: null };
    result.files.push(check);
    checks.push(check);
    hashAt.push(i);
  }
  if (checks.length < listed) {
    const present = new Set([...tree.files, ...odd]);
    for (const [rel, entry] of allListed(shards)) {
      if (!present.has(rel)) result.files.push({ path: rel, itemId: entry.itemId, status: "missing", expected: entry.sha256, actual: null });
    }
  }
  return { checks, hashAt };
}

/**
 * The source list the root binds by its sha256 (build.sources): read and hashed here, on this
 * thread (it is ~120 bytes per source), so an edited, missing or swapped list fails like a shard.
 */
function checkSourceList(root: string, manifest: Manifest, result: OutputVerification): void {
  const expected = manifest.build.sources;
  let text: string | null = null;
  try {
    text = readRegularText(join(root, SOURCES_LIST), { kind: "manifest" });
  } catch {
    // reported as missing
  }
  const actual = text === null ? null : sha256Hex(text);
  const status = text === null ? "missing" : actual === expected ? "verified" : "modified";
  // Listed only when it fails: it is metadata of the build, not one of the files it made, so counts stay those files'.
  if (status === "verified") result.sourceList = text!;
  else result.files.push({ path: SOURCES_LIST, itemId: null, status, expected, actual });
}

/**
 * The root must bind out/package.json: it makes Node read every `.js` of the folder as an ES
 * module, and without it the nearest package.json above out/ (the project's, anyone's) decides.
 * Once listed, a missing or edited one fails like any listed file; a root that does not list it
 * (an older rye, or a forged manifest) fails here.
 */
function requireModuleScope(manifest: Manifest, label: string, result: OutputVerification): void {
  if (Object.hasOwn(manifest.files, MODULE_SCOPE_FILE)) return;
  result.problems.push(`The signed manifest ${label} does not bind ${MODULE_SCOPE_FILE}, which decides whether Node reads the folder's modules as ES modules: the output may load differently from what was built\n  Fix: rebuild with rye build`);
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
  let unreadable: Unreadable | null = null;
  try {
    text = readRegularText(join(root, MANIFEST), { kind: "manifest" });
  } catch (e) {
    text = "";
    if (e instanceof Unreadable && !e.missing) unreadable = e;
  }
  const manifest = verifyManifest(text || "{}", trust, label);
  if (unreadable) manifest.message = `${MANIFEST} of ${dir} cannot be read: ${unreadable.reason}\n  Fix: rebuild with rye build`;
  else if (!text) manifest.message = `No ${MANIFEST} in ${dir}: not a signed build output (or its manifest was removed)\n  Fix: rebuild with rye build`;
  const result: OutputVerification = { ok: false, dir: root, manifest, files: [], bundles: [], problems: [] };
  if (!manifest.ok || !manifest.manifest) {
    result.problems.push(manifest.message);
    return result;
  }
  const shards = new ShardReader(root, manifest.manifest);
  const hashes = new FileHashes();
  // Worker threads take ~50 ms to boot: a build of many folders (thousands of files) boots them while this thread lists.
  // Stryker disable next-line all: whether worker threads help hash changes only the speed, never the result (equivalent mutants).
  if (shards.shardPaths.size >= MANY_FOLDERS) hashes.spawn();
  const tree = listTree(root);
  const files = tree.files.sort();
  // Paths built by concatenation (every platform takes "/"): path.join costs more than hashing a small file.
  const at = (rel: string) => `${root}/${rel}`;
  // Other threads start hashing while this one reads the shards, then joins them.
  const hashing = hashes.start(files.map((rel) => (mayBeListed(manifest.manifest!, rel) ? at(rel) : null)));
  const { broken, listed } = readShards(shards, result);
  checkSourceList(root, manifest.manifest, result);
  requireModuleScope(manifest.manifest, label, result);
  // Everything but the hashes is settled before this thread joins the hashing: no thread waits at its end.
  const waiting = checkFiles(shards, tree, { broken, listed }, result);
  const actual = await hashing.finish();
  for (let k = 0; k < waiting.checks.length; k++) {
    const check = waiting.checks[k]!;
    check.actual = actual[waiting.hashAt[k]!] ?? hashes.of(at(check.path));
    if (check.actual === check.expected) check.status = "verified";
  }
  const bad = result.files.filter((f) => f.status !== "verified");
  if (bad.length > 0) result.problems.push(`Files do not match the signed manifest ${label}:\n${bad.map((f) => `  ${describe(f)}`).join("\n")}\n  Fix: rebuild with rye build`);
  result.ok = result.problems.length === 0;
  return result;
}
