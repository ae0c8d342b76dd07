// Every file of a project's out/ (the writer's own .rye/ work folder left out) with its bytes, as one
// string: two outputs are byte-identical when their strings are equal.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export function outputBytes(project: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (e.name !== ".rye") walk(join(d, e.name));
      } else files.push(`${relative(project, join(d, e.name))}\n${readFileSync(join(d, e.name), "base64")}`);
    }
  };
  walk(join(project, "out"));
  return files.sort().join("\n");
}
