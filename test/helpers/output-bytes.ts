// The files of a build output folder with their bytes (the writer's own .rye/ work folder left out),
// for tests that compare two outputs byte for byte.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `dir` (its top-level .rye/ aside) by relative path, with its bytes; empty when `dir` does not exist. */
export function outputTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!(d === dir && e.name === ".rye")) walk(p);
      } else out.set(relative(dir, p), readFileSync(p));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** A project's out/ as one string of paths and bytes: two outputs are byte-identical when their strings are equal. */
export function outputBytes(project: string): string {
  return [...outputTree(join(project, "out"))]
    .map(([rel, bytes]) => `${join("out", rel)}\n${bytes.toString("base64")}`)
    .sort()
    .join("\n");
}
