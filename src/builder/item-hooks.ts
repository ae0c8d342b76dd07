// Pieces every way of compiling items shares: one thread (build-project.ts), a warm --watch rebuild
// (the same file) and each thread of a parallel build (compile-share.ts).
import { standaloneCopy } from "../analyze/standalone-copy.js";
import { itemKey } from "../cache/build-cache.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import type { SigningKey } from "../sign/keys.js";
import { carriesSignatureLine } from "../sign/signed-files.js";
import { signModule } from "../sign/sign-module.js";

/** Signs the modules (see carriesSignatureLine); other files (and every file of an unsigned build) pass as they are. */
export function moduleSigner(key: SigningKey | null, timestamp: string): (rel: string, text: string) => string {
  return (rel, text) => (key && carriesSignatureLine(rel) ? signModule(text, key, timestamp) : text);
}

/** What each item looked up while it was compiled, each item once, until its outcome takes it. */
export class LookupLog {
  private readonly seen = new Map<SourceFile, Map<string, [ItemKind, string]>>();

  add(from: SourceFile, kind: ItemKind, id: string): void {
    let items = this.seen.get(from);
    if (!items) this.seen.set(from, (items = new Map()));
    const key = itemKey(kind, id);
    // Kept until the cache is saved: a copy, not a view into the text the id was read from.
    if (!items.has(key)) items.set(key, [kind, standaloneCopy(id)]);
  }

  /** What `src` looked up, forgotten here. */
  take(src: SourceFile): [ItemKind, string][] {
    const items = this.seen.get(src);
    this.seen.delete(src);
    return items ? [...items.values()] : [];
  }
}
