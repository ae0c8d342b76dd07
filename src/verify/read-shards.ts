// The shards of a verified root manifest, each read and checked against the sha256 the root binds
// to its folder before anything in it is believed. `rye verify` reads them all; the loader reads
// only the shards of the folders it loads from.
import { NotReadable, readRegularFile } from "../project/source-text.js";
import { join } from "node:path";
import { sha256Hex } from "../sign/hash-region.js";
import { modulePathOf, parseShard, shardPath, splitPath, type Manifest, type Shard } from "../sign/sign-manifest.js";

/** The largest shard read (a shard lists one folder's files: far below this). */
const MAX_SHARD_BYTES = 64 * 1024 * 1024;

/** Why a shard cannot be used: absent, bytes other than the root binds, or (a signer's bug) not a shard. */
export interface ShardProblem {
  folder: string;
  path: string;
  status: "missing" | "modified" | "invalid";
  expected: string;
  actual: string | null;
  message: string;
}

/** What the manifest says of one file: its sha256 and its item, if it has one. */
export interface ListedFile {
  sha256: string;
  itemId: string | null;
}

export class ShardReader {
  private readonly loaded = new Map<string, Shard | ShardProblem>();
  /** The shard paths the root names, so a listing of out/ can tell them from unlisted files. */
  readonly shardPaths: Map<string, string>;

  constructor(
    private readonly dir: string,
    readonly manifest: Manifest,
  ) {
    this.shardPaths = new Map(Object.keys(manifest.shards).map((folder) => [shardPath(folder), folder]));
  }

  /** The shard of `folder`, or why it cannot be used; null when the root lists no such folder. */
  shard(folder: string): Shard | ShardProblem | null {
    const expected = Object.hasOwn(this.manifest.shards, folder) ? this.manifest.shards[folder]! : null;
    if (expected === null) return null;
    let s = this.loaded.get(folder);
    if (!s) this.loaded.set(folder, (s = this.read(folder, expected)));
    return s;
  }

  private read(folder: string, expected: string): Shard | ShardProblem {
    const path = shardPath(folder);
    let bytes: Buffer;
    try {
      // A regular file only, bounded: a FIFO in place of a shard must not block the loader.
      bytes = readRegularFile(join(this.dir, path), MAX_SHARD_BYTES);
    } catch (e) {
      if (e instanceof NotReadable && !e.missing) return { folder, path, status: "invalid", expected, actual: null, message: `Shard of ${folder} cannot be read: ${path}: ${e.reason}` };
      return { folder, path, status: "missing", expected, actual: null, message: `Missing shard of ${folder}: ${path}` };
    }
    const actual = sha256Hex(bytes);
    if (actual !== expected) return { folder, path, status: "modified", expected, actual, message: `Shard of ${folder} differs from the signed manifest: ${path}` };
    const shard = parseShard(bytes.toString("utf8"), folder);
    return typeof shard === "string" ? { folder, path, status: "invalid", expected, actual, message: `Shard ${path} ${shard}` } : shard;
  }

  /** What the manifest lists at `rel`: undefined when unlisted, a problem when its shard cannot be used. */
  file(rel: string): ListedFile | ShardProblem | undefined {
    const [folder, name] = splitPath(rel);
    let sha256: string | undefined;
    if (folder === "") sha256 = Object.hasOwn(this.manifest.files, name) ? this.manifest.files[name] : undefined;
    else {
      const shard = this.shard(folder);
      if (shard === null) return undefined;
      if (isProblem(shard)) return shard;
      sha256 = Object.hasOwn(shard.files, name) ? shard.files[name] : undefined;
    }
    return sha256 === undefined ? undefined : { sha256, itemId: this.itemOf(rel) };
  }

  /** The item whose module `rel` belongs to (`ts/x/a.ts` and `x/a.d.ts` belong to `x/a.js`'s item). */
  itemOf(rel: string): string | null {
    const [folder, name] = splitPath(modulePathOf(rel));
    const shard = folder === "" ? null : this.shard(folder);
    return shard && !isProblem(shard) && Object.hasOwn(shard.items, name) ? shard.items[name]![0] : null;
  }
}

export function isProblem(x: Shard | ShardProblem | ListedFile): x is ShardProblem {
  return "status" in x;
}
