/**
 * Links inside build output folders, and where they point. A module of an output folder replaced by
 * a symbolic link is loaded under its target's path: resolvers follow the link before any hook sees
 * the result. A request that names the folder is caught where it is asked (requested-path.ts), but
 * an alias names it without a path the loader can read (package.json "imports", a package's
 * self-reference through "exports", NODE_PATH). So the rule is on the other side: a file that is the
 * target of a link inside an output folder is never loaded, by any name.
 *
 * Which output folders could a requester reach? Any folder holding a rye manifest that stands beside
 * one of the requester's ancestors (the project's `out/`, a sibling package's), below a directory a
 * package.json alias of the requester's package points into, or on NODE_PATH. Each is scanned once,
 * links not followed, with a bound on entries.
 */
import { readdirSync, realpathSync, type Dirent } from "node:fs";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { readRegularText } from "../project/read-regular.js";

/** How many entries one output folder's scan reads at most (a 10k-directive build holds about 21k). */
export const MAX_SCANNED_ENTRIES = 1_000_000;
/** How deep a folder's scan descends. */
const MAX_DEPTH = 64;
/** How many entries of one ancestor are looked at for output folders. */
const MAX_SIBLINGS = 10_000;

function real(path: string): string | null {
  try {
    // One realpath(3) rather than an lstat per component; normalized first, as fs.realpathSync does.
    return realpathSync.native(resolve(path));
  } catch {
    return null;
  }
}

export class OutputLinks {
  /** A link's real target → the link, inside an output folder. */
  private readonly targets = new Map<string, string>();
  private readonly scanned = new Set<string>();
  private readonly ancestorsSeen = new Set<string>();
  private readonly packagesSeen = new Set<string>();
  private readonly aliasesFrom = new Set<string>();

  constructor(
    private readonly isOutputDir: (dir: string) => boolean,
    nodePath: readonly string[] = [],
  ) {
    for (const dir of nodePath) this.near(dir);
  }

  static fromEnv(isOutputDir: (dir: string) => boolean, env: NodeJS.ProcessEnv, cwd: string): OutputLinks {
    return new OutputLinks(isOutputDir, (env.NODE_PATH ?? "").split(delimiter).filter(Boolean).map((d) => resolve(cwd, d)));
  }

  /**
   * The link inside an output folder through which `file` (a real path) is reached, or null. The
   * output folders a requester in each of `requesterDirs` could reach are scanned first, each once.
   */
  linkTo(file: string, requesterDirs: readonly string[]): string | null {
    for (const dir of requesterDirs) {
      this.fromAncestors(dir);
      this.fromAliases(dir);
    }
    this.fromAncestors(dirname(file));
    for (let d = file; ; d = dirname(d)) {
      const link = this.targets.get(d);
      if (link !== undefined) return link;
      if (dirname(d) === d) return null;
    }
  }

  /** Output folders beside each ancestor of `dir`: its children that hold a rye manifest. */
  private fromAncestors(dir: string): void {
    for (let d = dir; !this.ancestorsSeen.has(d); d = dirname(d)) {
      this.ancestorsSeen.add(d);
      if (this.isOutputDir(d)) this.scan(d);
      let entries: Dirent[] = [];
      try {
        entries = readdirSync(d, { withFileTypes: true }).slice(0, MAX_SIBLINGS);
      } catch {
        // An unreadable folder has no output folder anyone could load from.
      }
      for (const e of entries) {
        // Only a folder, or a link that may lead to one, can hold a manifest: a file's scan would read nothing.
        if (!e.isDirectory() && !e.isSymbolicLink()) continue;
        const child = join(d, e.name);
        if (this.isOutputDir(child)) this.scan(child);
      }
      if (dirname(d) === d) return;
    }
  }

  /** `dir` itself or one of its ancestors, when it is an output folder. */
  private near(dir: string): void {
    for (let d = dir; ; d = dirname(d)) {
      if (this.isOutputDir(d)) this.scan(d);
      if (dirname(d) === d) return;
    }
  }

  /** The directories that the nearest package.json's "imports" and "exports" targets lie under. */
  private fromAliases(dir: string): void {
    if (this.aliasesFrom.has(dir)) return;
    this.aliasesFrom.add(dir);
    for (let d = dir; ; d = dirname(d)) {
      const file = join(d, "package.json");
      let text: string | null = null;
      try {
        // A package.json the application's own resolution reads, so a link to it is followed as Node would.
        text = readRegularText(file, { kind: "config", link: { links: "follow" } });
      } catch {
        text = null;
      }
      if (text !== null) {
        if (this.packagesSeen.has(d)) return;
        this.packagesSeen.add(d);
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          return;
        }
        const record = json !== null && typeof json === "object" ? (json as Record<string, unknown>) : {};
        for (const target of aliasTargets([record.imports, record.exports])) this.fromAncestors(join(d, literalDir(target)));
        return;
      }
      if (dirname(d) === d) return;
    }
  }

  /** Records every link in the output folder `dir`, links not followed, within the bounds. */
  private scan(dir: string): void {
    if (this.scanned.has(dir)) return;
    this.scanned.add(dir);
    let budget = MAX_SCANNED_ENTRIES;
    const walk = (at: string, depth: number): void => {
      if (depth > MAX_DEPTH || budget <= 0) return;
      let entries;
      try {
        entries = readdirSync(at, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        if (--budget <= 0) return;
        const path = join(at, e.name);
        if (e.isSymbolicLink()) {
          const target = real(path);
          if (target !== null) this.targets.set(target, path);
        } else if (e.isDirectory()) walk(path, depth + 1);
      }
    };
    walk(dir, 0);
  }
}

/** Every string a package.json "imports"/"exports" value maps to, through conditions and arrays. */
function aliasTargets(values: unknown[]): string[] {
  const out: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 32 || out.length > 10_000) return;
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) visit(x, depth + 1);
  };
  for (const v of values) visit(v, 0);
  return out.filter((t) => t.startsWith("./"));
}

/** The directory part of a target before any `*` pattern: `./out/*.js` → `out`. */
function literalDir(target: string): string {
  const head = target.split("*")[0]!;
  const dir = head.endsWith("/") ? head : dirname(head);
  return dir.split("/").filter((p) => p !== "." && p !== "").join(sep);
}
