// Watching the folders of a tree, one non-recursive fs.watch per folder. Node 20's recursive
// fs.watch on Linux loses a file as soon as it is replaced by a rename (how `sed -i`, vim and many
// editors save), and never reports it again. A folder's own watch names every entry created,
// changed, deleted or renamed in it, whatever its inode, so such saves are just events; folders
// created, renamed or deleted are reconciled by `sync()`, which the watcher calls before every read.
import { lstatSync, readdirSync, realpathSync, statSync, watch, type FSWatcher } from "node:fs";
import { dirname, join } from "node:path";

interface Watched {
  watcher: FSWatcher;
  /** The folder's identity when the watch began: a path now naming another folder is watched anew. */
  id: string;
}

const identity = (st: { dev: number; ino: number }) => `${st.dev}:${st.ino}`;

function statOf(path: string, follow: boolean) {
  try {
    return follow ? statSync(path, { throwIfNoEntry: false }) : lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export class TreeWatcher {
  private readonly watched = new Map<string, Watched>();
  /** A folder or link appeared, vanished or moved since the last `sync()`. */
  private stale = true;
  /** The tree holds a symlink: a change may show under a name no event gives, so every change is reported as null. */
  private linked = false;

  /**
   * @param roots folders to watch with everything below them; one missing now is picked up by `rootsMoved()`.
   * @param onChange told the absolute path of a changed file, or null when something structural changed
   *   (a folder, a link, an event without a name) and everything must be read again.
   */
  constructor(
    private readonly roots: readonly string[],
    private readonly onChange: (path: string | null) => void,
    private readonly onWarning: (message: string) => void = () => {},
  ) {}

  /** Watches every folder now below the roots, and stops watching those that are gone or were replaced. */
  sync(): void {
    if (!this.stale) return;
    this.stale = false;
    const found = new Set<string>();
    const seen = new Set<string>();
    let linked = false;
    const walk = (dir: string) => {
      const st = statOf(dir, true);
      if (!st?.isDirectory() || seen.has(identity(st))) return;
      seen.add(identity(st));
      found.add(dir);
      // Watch first, list second: an entry made in between is both listed and reported.
      this.attach(dir, identity(st));
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (e.isSymbolicLink()) {
          linked = true;
          const target = statOf(path, true);
          if (target?.isDirectory()) walk(path);
          else if (target?.isFile()) this.watchFileFolder(path, found, seen);
        }
      }
    };
    for (const root of this.roots) walk(root);
    this.linked = linked;
    for (const [dir, w] of this.watched) if (!found.has(dir)) this.detach(dir, w);
  }

  /** True when a root appeared, vanished or was replaced since it was last watched (checked by polling: its parent is not watched). */
  rootsMoved(): boolean {
    const moved = this.roots.some((root) => {
      const st = statOf(root, true);
      const w = this.watched.get(root);
      return st?.isDirectory() ? w?.id !== identity(st) : w !== undefined;
    });
    if (moved) this.stale = true;
    return moved;
  }

  close(): void {
    for (const [dir, w] of this.watched) this.detach(dir, w);
  }

  /** A symlinked file's target may live outside the tree: its folder is watched too (not below it). */
  private watchFileFolder(link: string, found: Set<string>, seen: Set<string>): void {
    let dir: string;
    try {
      dir = dirname(realpathSync(link));
    } catch {
      return;
    }
    const st = statOf(dir, true);
    if (!st || found.has(dir)) return;
    seen.add(identity(st));
    found.add(dir);
    this.attach(dir, identity(st));
  }

  private attach(dir: string, id: string): void {
    const old = this.watched.get(dir);
    if (old?.id === id) return;
    if (old) this.detach(dir, old);
    try {
      const entry: Watched = { watcher: watch(dir, (_event, name) => this.event(dir, name)), id };
      entry.watcher.on("error", () => {
        // The folder went away or became unreadable: the next sync decides what to watch.
        this.detach(dir, entry);
        this.stale = true;
        this.onChange(null);
      });
      this.watched.set(dir, entry);
    } catch (e) {
      // Out of inotify watches (ENOSPC), or the folder vanished in between; the next sync tries again.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") this.onWarning(`cannot watch ${dir} (${code ?? (e as Error).message}); changes there are seen at the next rebuild`);
    }
  }

  private detach(dir: string, w: Watched): void {
    if (this.watched.get(dir) === w) this.watched.delete(dir);
    w.watcher.close();
  }

  private event(dir: string, name: string | Buffer | null): void {
    if (name === null) {
      this.stale = true;
      return this.onChange(null);
    }
    const path = join(dir, name.toString());
    const st = statOf(path, false);
    // A folder or link created, deleted or renamed: watches must follow, and files below it moved with it.
    const structural = this.watched.has(path) || st?.isDirectory() === true || st?.isSymbolicLink() === true;
    if (structural) this.stale = true;
    this.onChange(structural || this.linked ? null : path);
  }
}
