import { mkdtempSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { generationsDir, writeOutput } from "../../src/output/write-output.js";

const ino = (path: string) => statSync(path).ino;

test("generations: the first build mirrors itself by hard links; a change is a new file in the other generation only", () => {
  const out = join(mkdtempSync(join(tmpdir(), "rye-gen-")), "out");
  const gens = generationsDir(out);
  const v1 = new Map([["index.js", "one"], ["directives/a.js", "a"], ["directives/b.js", "b"]]);
  expect(writeOutput(out, v1)).toEqual({ written: 3, removed: 0 });
  expect(readlinkSync(out)).toMatch(/a$/);
  // Both generations share every file, so the next small change links nothing.
  for (const rel of v1.keys()) expect(ino(join(gens, "b", rel))).toBe(ino(join(gens, "a", rel)));
  expect(JSON.parse(readFileSync(join(gens, "state.json"), "utf8"))).toEqual({ live: "a", otherDiffers: [] });

  const v2 = new Map([["index.js", "one"], ["directives/a.js", "a, changed"]]);
  expect(writeOutput(out, v2)).toEqual({ written: 1, removed: 1 });
  expect(readlinkSync(out)).toMatch(/b$/);
  expect(readFileSync(join(out, "directives", "a.js"), "utf8")).toBe("a, changed");
  // The previous generation still holds the previous output, untouched.
  expect(readFileSync(join(gens, "a", "directives", "a.js"), "utf8")).toBe("a");
  expect(readFileSync(join(gens, "a", "directives", "b.js"), "utf8")).toBe("b");
  expect(ino(join(gens, "b", "index.js"))).toBe(ino(join(gens, "a", "index.js")));
  expect(JSON.parse(readFileSync(join(gens, "state.json"), "utf8"))).toEqual({ live: "b", otherDiffers: ["directives/a.js", "directives/b.js"] });

  // Nothing changed: nothing written, no swap.
  expect(writeOutput(out, v2)).toEqual({ written: 0, removed: 0 });
  expect(readlinkSync(out)).toMatch(/b$/);
  // Back to v1: generation a is brought up to date for exactly the paths that differ.
  expect(writeOutput(out, v1)).toEqual({ written: 2, removed: 0 });
  expect(readlinkSync(out)).toMatch(/a$/);
  for (const [rel, text] of v1) expect(readFileSync(join(out, rel), "utf8")).toBe(text);
});
