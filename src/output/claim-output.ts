// Deciding whether a build may write a folder, before anything is created anywhere: never the file
// system's root or a folder holding the project, never a file or a foreign symlink, and never a
// folder holding files that no build recorded as its own (they are named, not deleted).
import { closeSync, constants, existsSync, lstatSync, openSync, readSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { basename, dirname, join, parse, resolve, sep } from "node:path";
import { GITATTRIBUTES, RECORD, WORK_DIR, housekeepingFiles, isNotBuildOutput, parseRecord } from "./output-record.js";
import { OutputError, writeFailure, type OutputFs } from "./output-fs.js";
import { readRegular, writeNoFollow } from "./no-follow.js";
import type { Bookkeeping } from "../cache/bookkeeping-seal.js";
import { realOf } from "../project/settings.js";
export { realOf };

/** What out/ holds that a build may replace or delete, and the record's text as found. */
export interface Claim {
  owned: Set<string>;
  record: string | null;
  /**
   * The record carries this user's seal for this folder (out/.rye/record.seal): a build wrote it
   * here. An unsealed record (a fresh clone, a pull request's) still names what a build may
   * replace, but a file it lists is deleted only when it is recognisably build output.
   */
  sealed: boolean;
}

/** Where the seal of out/'s record is kept: in the writer's own folder, never committed. */
const recordSeal = (outDir: string) => join(outDir, WORK_DIR, "record.seal");

/** Seals the record out/ now holds (after a commit), so the next build may delete what it lists. */
export function sealRecord(outDir: string, book: Bookkeeping): void {
  const text = readRegular(join(outDir, RECORD));
  const mac = text === null ? null : book.mac("output-record", outDir, text);
  if (mac === null) return;
  try {
    // Not one of the writer's injectable operations: a seal left unwritten is never a failed build.
    writeNoFollow(recordSeal(outDir), mac);
  } catch {
    // Only lets the next build delete files the record lists without recognising them first.
  }
}

/** How many foreign files a refusal names (a folder like /usr would otherwise list thousands). */
const NAMED = 12;

const refuse = (path: string, message: string) => new OutputError(message, path, "RYE8005");

/** Refusals decided from the path alone: nothing has been read or created yet. */
export function refuseOutDir(outDir: string, project?: string): void {
  if (parse(outDir).root === outDir) throw refuse(outDir, `${outDir} is the root of the file system; choose an output folder of its own (default: out)`);
  if (project !== undefined) {
    const [out, proj] = [realOf(outDir), realOf(resolve(project))];
    if (within(proj, out)) throw refuse(outDir, `${outDir} holds the project itself; choose an output folder inside it (default: out)`);
    // The folder comes from a flag or from the project's config file, which a pull request can
    // change: it may only name a place in the project, links resolved, never one beside or above it.
    if (!within(out, proj)) {
      const how = out === resolve(outDir) ? "" : ` (${out} once links are resolved)`;
      throw refuse(outDir, `${outDir} lies outside the project ${proj}${how}; the output folder must be inside the project (default: out)`);
    }
    // `.git` is the repository's own state, not the checkout's: a build writing refs or hooks there
    // would change what git does. Any spelling, as case-insensitive file systems treat them alike.
    if (out.slice(proj.length).split(sep).some((part) => part.toLowerCase() === ".git")) throw refuse(outDir, `${outDir} lies inside the project's .git folder, which holds the repository's own state; choose an output folder outside .git (default: out)`);
  }
  const st = lstatSync(outDir, { throwIfNoEntry: false });
  if (st?.isSymbolicLink() && !oldGeneration(outDir)) {
    throw refuse(outDir, `${outDir} is a symlink; rye build writes a plain folder: remove the link, or point --out at the folder itself`);
  }
  if (st && !st.isSymbolicLink() && !st.isDirectory()) throw refuse(outDir, `${outDir} exists and is not a folder; remove it or choose another --out`);
}

const within = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);


/** Where an earlier rye kept the two generations `out` used to be a symlink to. */
const generationsOf = (outDir: string) => join(dirname(outDir), `.${basename(outDir)}.generations`);

/** The generation an old-layout `out` symlink points at, or null when it is another kind of link. */
function oldGeneration(outDir: string): string | null {
  try {
    const target = resolve(dirname(outDir), readlinkSync(outDir));
    const gens = generationsOf(outDir);
    return target === join(gens, "a") || target === join(gens, "b") ? target : null;
  } catch {
    return null;
  }
}

/**
 * Turns the layout of an earlier rye (`out` a symlink to `.out.generations/a` or `b`) into a plain
 * folder: the live generation is moved into place and the generations removed. A link whose
 * generation is missing (a clone of a repository that committed the link) is just removed.
 */
export function migrateGenerations(outDir: string, fs: OutputFs): void {
  const gens = generationsOf(outDir);
  try {
    const target = oldGeneration(outDir);
    if (target) {
      fs.unlink(outDir);
      if (statSync(target, { throwIfNoEntry: false })?.isDirectory()) fs.rename(target, outDir);
      fs.rmTree(gens);
    } else if (!lstatSync(outDir, { throwIfNoEntry: false }) && existsSync(join(gens, "state.json"))) {
      // Killed between the two steps above: the link is gone, the live generation still aside.
      const live = (JSON.parse(readRegular(join(gens, "state.json")) ?? "{}") as { live?: string }).live;
      if ((live === "a" || live === "b") && existsSync(join(gens, live))) fs.rename(join(gens, live), outDir);
      fs.rmTree(gens);
    }
  } catch (e) {
    throw writeFailure(e, outDir, "moving the previous output generation into");
  }
}

/**
 * What a build may take over in `outDir` (which exists): the files its record lists or, without a
 * record (an older rye's output), the files that are recognisably build output. Anything else is
 * refused (RYE8005) with the first files named.
 */
export function claimOutput(outDir: string, book?: Bookkeeping): Claim {
  const recordText = readOrNull(join(outDir, RECORD));
  const recorded = recordText === null ? null : parseRecord(recordText);
  const mac = recorded && book ? book.mac("output-record", outDir, recordText!) : null;
  const sealed = mac !== null && readRegular(recordSeal(outDir)) === mac;
  const owned = new Set<string>();
  const foreign: string[] = [];
  for (const [rel, kind] of entries(outDir)) {
    if (kind !== "file") foreign.push(`${rel} (${kind})`);
    else if (isNotBuildOutput(rel)) continue;
    else if (recorded ? recorded.has(rel) : recognised(outDir, rel)) owned.add(rel);
    else foreign.push(rel);
    if (foreign.length > NAMED) break;
  }
  if (foreign.length > 0) {
    const named = foreign.slice(0, NAMED).join(", ") + (foreign.length > NAMED ? ", …" : "");
    const why = recorded ? `no build recorded as its own (in ${RECORD})` : "no build wrote";
    throw refuse(join(outDir, foreign[0]!.replace(/ \(.*\)$/, "")), `${outDir} holds files ${why}: ${named}. rye build never deletes or replaces them: move them elsewhere, or choose another --out`);
  }
  if (recorded) for (const rel of recorded) owned.add(rel);
  return { owned, record: recorded ? recordText : null, sealed };
}

/** Every entry under `dir` except the writer's own folder, as `/`-separated paths, lazily (a foreign folder may be huge). */
function* entries(dir: string): Generator<[string, "file" | "symlink" | "special"]> {
  const walk = function* (d: string, prefix: string): Generator<[string, "file" | "symlink" | "special"]> {
    let list;
    try {
      list = readdirSync(d, { withFileTypes: true });
    } catch (e) {
      throw writeFailure(e, d, "reading");
    }
    for (const e of list) {
      const rel = prefix + e.name;
      if (e.isDirectory()) {
        if (prefix !== "" || e.name !== WORK_DIR) yield* walk(join(d, e.name), `${rel}/`);
      } else yield [rel, e.isFile() ? "file" : e.isSymbolicLink() ? "symlink" : "special"];
    }
  };
  yield* walk(dir, "");
}

/** Without a record: a file an older rye build wrote, by its header or its exact shape. */
export function recognised(outDir: string, rel: string): boolean {
  const path = join(outDir, rel);
  if (/\.(?:js|mjs|ts)$/.test(rel)) {
    const head = readHead(path);
    return head.includes("rye:signed:") || head.includes("@generated by rye build");
  }
  if (rel === "manifest.json") return /"signature": "rye:signed:[^"]*"\s*\}\s*$/.test(readOrNull(path) ?? "");
  if (rel === "package.json") {
    try {
      const pkg = JSON.parse(readOrNull(path) ?? "") as Record<string, unknown>;
      return Object.keys(pkg).sort().join() === "private,type" && pkg.type === "module" && pkg.private === true;
    } catch {
      return false;
    }
  }
  return rel === GITATTRIBUTES && readOrNull(path) === housekeepingFiles([]).get(GITATTRIBUTES);
}

function readHead(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const buf = Buffer.alloc(1024);
    return buf.toString("utf8", 0, readSync(fd, buf, 0, 1024, 0));
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Only a regular file is read: a link would read another file, a FIFO would block the build. */
const readOrNull = readRegular;
