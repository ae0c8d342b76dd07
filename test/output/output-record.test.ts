// The record of what a build wrote (out/rye-files.json): each folder's names listed once, read back
// as the same set of paths, the whole-path list of earlier versions still read, and no path that
// could leave out/ ever returned from either form.
import { describe, expect, test } from "vitest";
import { formatRecord, parseRecord } from "../../src/output/output-record.js";

const PATHS = ["index.js", "directives/a/b.js", "directives/a/b.d.ts", "directives/a/c.js", "manifest/directives%2Fa.json", "package.json"];

describe("output record", () => {
  test("lists each folder once with its file names, and reads back the same paths", () => {
    const text = formatRecord(PATHS);
    expect(text).toContain('"directives/a":["b.d.ts","b.js","c.js"]');
    expect(text).toContain('"":[".gitattributes","index.js","package.json","rye-files.json"]');
    expect(text.match(/directives\/a/g)).toHaveLength(1);
    expect(parseRecord(text)).toEqual(new Set([...PATHS, "rye-files.json", ".gitattributes"]));
    // The same set in another order is the same text.
    expect(formatRecord([...PATHS].reverse())).toBe(text);
  });

  test("is much shorter than the whole paths for many files in few folders", () => {
    const many = Array.from({ length: 1000 }, (_, i) => [`directives/bench/g${i % 10}/task_${i}.js`, `directives/bench/g${i % 10}/task_${i}.d.ts`]).flat();
    const whole = JSON.stringify({ files: many }, null, 1);
    expect(formatRecord(many).length).toBeLessThan(whole.length * 0.5);
  });

  test("reads the whole-path list earlier versions wrote", () => {
    const old = JSON.stringify({ generator: "rye build", note: "", files: ["index.js", "directives/a.js"] }, null, 1);
    expect(parseRecord(old)).toEqual(new Set(["index.js", "directives/a.js"]));
  });

  test("drops paths that could leave out/ or reach the writer's folder, in either form, and refuses other texts", () => {
    const record = { generator: "rye build", folders: { "": ["../x", "/etc/passwd", "ok.js", ""], "..": ["x"], "a/..": ["b"], "/etc": ["passwd"], ".rye": ["lock"], a: ["../../x", "b/../c", "d.js"] } };
    expect(parseRecord(JSON.stringify(record))).toEqual(new Set(["ok.js", "a/d.js"]));
    expect(parseRecord(JSON.stringify({ generator: "rye build", files: ["../x", "a\\b", "ok.js"] }))).toEqual(new Set(["ok.js"]));
    expect(parseRecord(JSON.stringify({ generator: "other", folders: { "": ["a.js"] } }))).toBeNull();
    expect(parseRecord(JSON.stringify({ generator: "rye build", folders: ["a.js"] }))).toBeNull();
    expect(parseRecord("not json")).toBeNull();
  });
});
