// The layout's two rules that a change can break without any other test noticing: no import circles
// in src/, and the runtime (what emitted code imports) never imports the compiler.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const src = fileURLToPath(new URL("../src/", import.meta.url));

/** Every `.ts` file under src/ with the src/ files it imports (type-only imports included). */
function graph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (e.name !== "generated") walk(join(d, e.name));
      } else if (e.name.endsWith(".ts")) files.push(join(d, e.name));
    }
  };
  walk(src);
  const known = new Set(files);
  return new Map(
    files.map((f) => {
      const text = readFileSync(f, "utf8");
      const deps = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g)].map((m) => resolve(dirname(f), m[1]!.replace(/\.js$/, ".ts"))).filter((p) => known.has(p));
      return [f, deps];
    }),
  );
}

test("src/ has no import circles", () => {
  const g = graph();
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    stack.push(n);
    for (const m of g.get(n) ?? []) {
      if (state.get(m) === "open") cycles.push([...stack.slice(stack.indexOf(m)), m].map((x) => relative(src, x)).join(" → "));
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const f of g.keys()) if (!state.has(f)) visit(f);
  expect(cycles).toEqual([]);
});

test("src/runtime/ imports nothing outside itself", () => {
  const g = graph();
  const runtime = join(src, "runtime");
  const outside = [...g].filter(([f]) => f.startsWith(runtime)).flatMap(([f, deps]) => deps.filter((d) => !d.startsWith(runtime)).map((d) => `${relative(src, f)} → ${relative(src, d)}`));
  expect(outside).toEqual([]);
});
