/**
 * The one reader for files rye opens from a project, a user space or an output folder
 * (decisions.md #25). Whatever a checkout or a space holds at a path (a link to /dev/zero, a FIFO,
 * a socket, a folder, a file of gigabytes, a link out of the space), the read either returns the
 * bytes of a regular file within its size limit or throws `Unreadable` naming the path and why,
 * at once:
 *   - opened with O_NONBLOCK, so a FIFO never waits for a writer;
 *   - checked with fstat on the open descriptor, so a file swapped after any earlier look is still
 *     what is judged: only a regular file is read;
 *   - read to at most the size the open file had when checked, itself at most its kind's limit, so
 *     a file that grows while read is never read without end;
 *   - links: `refuse` opens with O_NOFOLLOW; `inside` follows links only to a file inside `root`
 *     (both real paths), then opens that file with O_NOFOLLOW; `follow` is for paths whoever runs
 *     rye named (a flag, an environment variable), never for paths found in a tree.
 * test/architecture/bounded-readers.test.ts fails for a read of a file anywhere else in src/ that is
 * not on its short list of reasons.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** Size limits by kind of file: each far above what rye writes or a person types, and far below memory. */
export const READ_LIMITS = {
  /** Directives, knowledge, tools (RYE_MAX_FILE_SIZE may lower or raise it for sources). */
  source: 1024 * 1024,
  /** rye.config.json, package.json, agents TOML, hook configuration, test files, .env. */
  config: 1024 * 1024,
  /** One trusted-key TOML or public key PEM: a key is a few hundred bytes. */
  key: 64 * 1024,
  /** A manifest, shard or source list of an output folder (10k items make a few MB). */
  manifest: 64 * 1024 * 1024,
  /** A bundle, or a file of an output folder. */
  output: 256 * 1024 * 1024,
} as const;

export type ReadKind = keyof typeof READ_LIMITS;

/** How a read treats symbolic links at the path. */
export type LinkRule = { links: "refuse" } | { links: "inside"; root: string } | { links: "follow" };

export interface ReadRule {
  kind: ReadKind;
  /** Overrides the kind's limit (RYE_MAX_FILE_SIZE). */
  maxBytes?: number;
  /** Default: refuse. */
  link?: LinkRule;
  /** Reads into this buffer when it is large enough (a walk reads thousands of files); the bytes are valid until the next read into it. */
  buffer?: (size: number) => Buffer;
}

/** A file rye will not read, and why, in words for a diagnostic. `path` is the path as given. */
export class Unreadable extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    /** True when the path is simply absent (no file, no link): callers that treat "none" as normal check this. */
    readonly missing = false,
  ) {
    super(reason);
  }

  /** Set when the file is over its limit: its size, and the limit. */
  size?: number;
  limit?: number;
}

/** What a read returns: the bytes and the stat of the open file they were read from. */
export interface RegularBytes {
  bytes: Buffer;
  stat: Stats;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a stat says a non-regular entry is, in words. */
export function describeEntry(st: Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a file";
}

/** `describeEntry`, naming a link's target too (for refusals of a writer that found a link at `abs`). */
export function describeWithTarget(abs: string, st: Stats): string {
  if (!st.isSymbolicLink()) return describeEntry(st);
  let target = "";
  try {
    target = ` to ${readlinkSync(abs)}`;
  } catch {
    // The link's text is only for the message.
  }
  return `a symbolic link${target}`;
}

/** The bytes of the regular file at `path` under `rule`, with its stat; throws Unreadable. */
export function readRegularBytes(path: string, rule: ReadRule): RegularBytes {
  const max = rule.maxBytes ?? READ_LIMITS[rule.kind];
  const link = rule.link ?? { links: "refuse" };
  const target = link.links === "inside" ? insideTarget(path, link.root) : path;
  let fd: number;
  try {
    fd = openSync(target, FLAGS | (link.links === "follow" ? 0 : NOFOLLOW));
  } catch (e) {
    throw openFailure(path, e as NodeJS.ErrnoException);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Unreadable(path, `it is ${describeEntry(stat)}, not a regular file; only regular files are read`);
    if (stat.size > max) throw Object.assign(new Unreadable(path, `it is ${stat.size} bytes, over the limit of ${max} bytes`), { size: stat.size, limit: max });
    // No more than the size checked: bytes appended since are not read (a regular file's size is what was judged).
    const want = stat.size;
    const bytes = rule.buffer ? rule.buffer(want) : Buffer.allocUnsafe(want);
    let n = 0;
    for (let got = 1; got > 0 && n < want; n += got) got = readSync(fd, bytes, n, want - n, null);
    return { bytes: bytes.subarray(0, n), stat };
  } catch (e) {
    if (e instanceof Unreadable) throw e;
    throw new Unreadable(path, (e as NodeJS.ErrnoException).code ?? (e as Error).message);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of the regular file at `path`; throws Unreadable. */
export function readRegular(path: string, rule: ReadRule): Buffer {
  return readRegularBytes(path, rule).bytes;
}

/** The UTF-8 text of the regular file at `path` (invalid bytes are replaced); throws Unreadable. */
export function readRegularText(path: string, rule: ReadRule): string {
  return readRegular(path, rule).toString("utf8");
}

/** The real path of `path` when it lies inside `root` (both resolved through links); throws Unreadable otherwise. */
function insideTarget(path: string, root: string): string {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(path);
  } catch (e) {
    throw openFailure(path, e as NodeJS.ErrnoException);
  }
  try {
    realRoot = realpathSync(root);
  } catch {
    realRoot = resolve(root);
  }
  // What the link leads to is named first when it is no regular file at all (a device says more than "outside").
  const st = statSync(real, { throwIfNoEntry: false });
  if (st && !st.isFile()) throw new Unreadable(path, `it is ${describeEntry(st)}, not a regular file; only regular files are read`);
  const rel = relative(realRoot, real);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Unreadable(path, `it leads out of ${root} (to ${real}); links are followed only inside it`);
  return real;
}

function openFailure(path: string, e: NodeJS.ErrnoException): Unreadable {
  switch (e.code) {
    case "ENOENT":
      return new Unreadable(path, isLink(path) ? "it is a link to nothing" : "it does not exist", !isLink(path));
    case "ELOOP":
      return new Unreadable(path, "it is a symbolic link; links are not followed here");
    case "EISDIR":
      return new Unreadable(path, "it is a folder, not a regular file; only regular files are read");
    case "ENXIO":
      return new Unreadable(path, "it is a socket or a device without a reader, not a regular file; only regular files are read");
    default:
      return new Unreadable(path, e.code ?? e.message);
  }
}

function isLink(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
}
