// Moving mtimes back, for tests of the up-to-date stamp: a build records or trusts a stamp only
// when nothing it read moved within the racy window.
import { readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";

/** Moves every mtime under `dir` (the folder itself included) ten seconds back. */
export function age(dir: string): void {
  const past = new Date(Date.now() - 10_000);
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.isFile()) utimesSync(join(d, e.name), past, past);
    }
    utimesSync(d, past, past);
  };
  walk(dir);
}
