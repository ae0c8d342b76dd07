import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The files of an output folder except the writer's own .rye/, by relative path, with their text. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (rel === "" && e.name === ".rye") continue;
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else out[rel + e.name] = readFileSync(join(d, e.name), "utf8");
    }
  };
  if (existsSync(dir)) walk(dir, "");
  return out;
}
