// A folder in a tree of its own next to a test's temporary folder. A user space (or anything that
// must lie outside the checkout) may not sit inside a folder above the project: every such folder
// may belong to the checkout. `outsideOf(base)` is `<base>-outside`, created, beside `base` under
// the temporary folder, so its ancestors and the project's share only the temporary folder itself.
import { mkdirSync } from "node:fs";

export function outsideOf(base: string): string {
  const dir = `${base}-outside`;
  mkdirSync(dir, { recursive: true });
  return dir;
}
