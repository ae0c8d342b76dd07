/**
 * What an output folder may hold for the loader and the plugins to load anything from it, checked
 * once per folder before any of its files is read. Node and the bundlers consult more than the
 * module they load: `package.json` files steer `type`, `exports`, `imports` and `main`, and a
 * `node_modules` folder is where a bare import is looked up first. None of that passes through a load
 * hook, so it is held to the signed manifest here: rye build writes no `node_modules`, no link and
 * no special file, and only the root `package.json` it always writes (or one the manifest records).
 * Reads go through `readOutputFile`: regular files only, bounded, so a FIFO cannot stall a load.
 */
import { join } from "node:path";
import { NotReadable, readRegularFile } from "../project/source-text.js";
import { IntegrityError } from "./integrity-error.js";
import { allowedUnlisted, MODULE_SCOPE_FILE } from "./output-files.js";
import { isProblem, type ShardReader } from "./read-shards.js";
import { sha256Hex } from "../sign/hash-region.js";
import { listTree } from "./verify-output.js";

/** The largest file of an output folder (a module, a shard, a manifest) the loader reads. */
export const MAX_OUTPUT_FILE_BYTES = 64 * 1024 * 1024;

/** The bytes of a regular file of an output folder; a FIFO, device, socket or oversized file is a located IntegrityError. */
export function readOutputFile(path: string, name: string = path): Buffer {
  try {
    return readRegularFile(path, MAX_OUTPUT_FILE_BYTES);
  } catch (e) {
    if (e instanceof NotReadable) throw new IntegrityError(name, `${path} cannot be loaded: ${e.reason}`);
    throw e;
  }
}

/** Whether Node or a bundler consults `rel` when resolving an import (not when loading it). */
function steersResolution(rel: string): boolean {
  const parts = rel.split("/");
  return parts.includes("node_modules") || parts[parts.length - 1] === "package.json";
}

/** A package.json the build wrote: one the manifest records with these bytes (or, unlisted, the root one with the fixed content). */
function recordedMetadata(dir: string, rel: string, folder: ShardReader): boolean {
  if (rel.split("/").includes("node_modules")) return false;
  const entry = folder.file(rel);
  if (!entry || isProblem(entry)) return rel === "package.json" && allowedUnlisted(rel, join(dir, rel));
  try {
    return sha256Hex(readOutputFile(join(dir, rel))) === entry.sha256;
  } catch {
    return false;
  }
}

/** Why nothing of the output folder `dir` may load, or null when its tree is one rye build could have written. */
export function treeProblem(dir: string, folder: ShardReader): string | null {
  const tree = listTree(dir);
  const rebuild = "rye build never writes one, so nothing of that folder runs; remove it and rebuild";
  if (tree.links.length > 0) return `The build output folder ${dir} holds symbolic links (${tree.links.slice(0, 3).join(", ")}): ${rebuild}`;
  if (tree.others.length > 0) return `The build output folder ${dir} holds files that are not regular files (${tree.others.slice(0, 3).join(", ")}; a FIFO, socket or device): ${rebuild}`;
  const scope = folder.file(MODULE_SCOPE_FILE);
  if (scope === undefined || isProblem(scope)) return `The signed manifest of ${dir} does not bind its ${MODULE_SCOPE_FILE}, which decides whether Node reads its modules as ES modules, so nothing of that folder runs; rebuild with rye build`;
  if (!tree.files.includes(MODULE_SCOPE_FILE)) return `The build output folder ${dir} lacks the ${MODULE_SCOPE_FILE} its signed manifest lists: without it the nearest package.json above the folder decides how Node reads its modules, so nothing of that folder runs; rebuild`;
  const steering = tree.files.filter((rel) => steersResolution(rel) && !recordedMetadata(dir, rel, folder));
  if (steering.length > 0) return `The build output folder ${dir} holds module resolution files its signed manifest does not record (${steering.slice(0, 3).join(", ")}): a node_modules folder or package.json there decides what a signed module's imports load; ${rebuild}`;
  return null;
}
