// Which preload arguments name the register entry, and how they are pinned to its file: every
// form Node takes (`--import X`, `--import=X`, `-r X`, `--require X`, `--require=X`), in an argument
// list and in NODE_OPTIONS (split as Node splits it), with everything else left as it is.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { namesEntryFrom, pinnedArgs, pinnedNodeOptions, splitNodeOptions, type Entry } from "../../src/register/pinned-entry.js";

const entry: Entry = { url: "file:///pkg/dist/register/index.js", path: "/pkg/dist/register/index.js" };
const bare = (v: string) => v === "rye-build/register";

describe("pinnedArgs", () => {
  test.each([
    [["--import", "rye-build/register", "app.mjs"], ["--import", entry.url, "app.mjs"]],
    [["--import=rye-build/register"], [`--import=${entry.url}`]],
    [["-r", "rye-build/register"], ["-r", entry.path]],
    [["--require", "rye-build/register"], ["--require", entry.path]],
    [["--require=rye-build/register"], [`--require=${entry.path}`]],
    [["--import", "tsx", "--import", "rye-build/register"], ["--import", "tsx", "--import", entry.url]],
  ])("%j becomes %j", (args, pinned) => {
    expect(pinnedArgs(args, entry, bare)).toEqual(pinned);
  });
  test.each([[["--import", "tsx"]], [["--title", "rye-build/register"]], [["--import"]], [["rye-build/register"]]])("left alone: %j", (args) => {
    expect(pinnedArgs(args, entry, bare)).toEqual(args);
  });
});

describe("NODE_OPTIONS", () => {
  test("split on spaces, double quotes group, backslash escapes inside them", () => {
    expect(splitNodeOptions(' --a  "b c" "d\\"e" f')).toEqual(["--a", "b c", 'd"e', "f"]);
  });
  test("the entry pinned; a path with spaces quoted so Node reads it back whole", () => {
    const spaced: Entry = { url: "file:///my%20pkg/index.js", path: "/my pkg/index.js" };
    expect(pinnedNodeOptions("--import rye-build/register --no-warnings", spaced, bare)).toBe("--import file:///my%20pkg/index.js --no-warnings");
    const text = pinnedNodeOptions('-r "rye-build/register"', spaced, bare);
    expect(text).toBe('-r "/my pkg/index.js"');
    expect(splitNodeOptions(text)).toEqual(["-r", "/my pkg/index.js"]);
  });
  test("unchanged text when nothing names the entry", () => {
    expect(pinnedNodeOptions("  --max-old-space-size=100   --import tsx", entry, bare)).toBe("  --max-old-space-size=100   --import tsx");
  });
});

describe("namesEntryFrom (resolved from the cwd the process started in)", () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-pinned-"));
  const file = join(dir, "pkg", "index.js");
  mkdirSync(join(dir, "pkg"));
  writeFileSync(file, "");
  symlinkSync(join(dir, "pkg"), join(dir, "link"), "dir");
  writeFileSync(join(dir, "other.js"), "");
  const names = namesEntryFrom(dir, { url: pathToFileURL(file).href, path: file });
  test.each(["rye-build/register", "./pkg/index.js", "./link/index.js", file, pathToFileURL(join(dir, "link", "index.js")).href])("names the entry: %s", (v) => {
    expect(names(v)).toBe(true);
  });
  test.each(["./other.js", "other-package/register", "file:///nowhere/index.js"])("does not: %s", (v) => {
    expect(names(v)).toBe(false);
  });
});
