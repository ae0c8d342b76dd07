// Folder depth under .ai/ (class 4, bounded work): an item tree is walked at most MAX_FOLDER_DEPTH
// folders deep. A deeper folder is a located RYE8002 naming the limit and is not entered, by the
// build's read, by the up-to-date stamp's walk and by the watcher, so a pull request of a few KB of
// nested empty folders cannot stall them. The walk resolves a plain folder's real path from its
// parent's (no realpath per level), so the work per folder does not grow with the depth.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_FOLDER_DEPTH } from "../../src/project/file-kinds.js";
import { readProject } from "../../src/project/read-project.js";
import { WatchedSources } from "../../src/watch/watch-sources.js";
import { BIN, cleanEnv, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const directive = (name: string) => `# ${name}\n\n\`\`\`xml\n<directive name="${name}" version="1.0.0">\n  <metadata><description>D.</description></metadata>\n</directive>\n\`\`\`\n\nHello.\n`;
const nested = (levels: number) => Array.from({ length: levels }, () => "d").join("/");

let root: string;
beforeAll(() => {
  root = tempDir("rye-depth-");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(name: string, levels: number): string {
  const dir = join(root, name);
  mkdirSync(join(dir, ".ai", "directives", nested(levels)), { recursive: true });
  return dir;
}

describe("the walk stops at the depth limit, with a located error naming it", () => {
  test("an item at the limit is read; one folder deeper is reported, not entered", () => {
    const dir = project("edge", MAX_FOLDER_DEPTH + 3);
    writeFileSync(join(dir, ".ai", "directives", nested(MAX_FOLDER_DEPTH), "at_limit.md"), directive("at_limit"));
    writeFileSync(join(dir, ".ai", "directives", nested(MAX_FOLDER_DEPTH + 1), "too_deep.md"), directive("too_deep"));
    const { sources, diagnostics } = readProject(dir, ["directive"]);
    expect(sources.map((s) => s.id)).toEqual([`${nested(MAX_FOLDER_DEPTH)}/at_limit`]);
    expect(diagnostics.map((x) => [x.code, x.loc?.source, x.loc?.start.line, x.loc?.start.column])).toEqual([["RYE8002", `.ai/directives/${nested(MAX_FOLDER_DEPTH + 1)}`, 1, 1]]);
    expect(diagnostics[0]!.message).toMatch(new RegExp(`more than ${MAX_FOLDER_DEPTH} folders below its item folder, the limit on folder depth`));
  });

  test("the watcher takes a change past the limit to the full read (which reports it), never as an item", () => {
    const dir = project("watch", MAX_FOLDER_DEPTH);
    writeFileSync(join(dir, ".ai", "directives", "top.md"), directive("top"));
    const watched = new WatchedSources({ project: dir, user: join(outsideOf(root), "nouser"), systems: [] });
    expect(watched.read()).toMatchObject({ diagnostics: [] });
    mkdirSync(join(dir, ".ai", "directives", nested(MAX_FOLDER_DEPTH + 1)));
    const deep = join(dir, ".ai", "directives", nested(MAX_FOLDER_DEPTH + 1), "x.md");
    writeFileSync(deep, directive("x"));
    watched.touch(deep);
    const after = watched.read();
    expect(after.sources.map((s) => s.id)).toEqual(["top"]);
    expect(after.diagnostics.map((x) => x.code)).toEqual(["RYE8002"]);
  });
});

// The attack as found: a thousand nested empty folders made `rye build` take minutes. The hard
// timeout turns a stall into a failure (status null), not a stuck suite.
test("rye build on a thousand nested folders: the located error, at once", () => {
  const dir = project("thousand", 1000);
  writeFileSync(join(dir, ".ai", "directives", "top.md"), directive("top"));
  const r = spawnSync(process.execPath, [BIN, "build", "--allow-unsigned"], { cwd: dir, env: cleanEnv({ USER_SPACE: join(outsideOf(root), "user") }), encoding: "utf8", timeout: 30_000 });
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toContain(`.ai/directives/${nested(MAX_FOLDER_DEPTH + 1)}:1:1 - error RYE8002: Cannot read: it lies more than ${MAX_FOLDER_DEPTH} folders below its item folder`);
  expect(existsSync(join(dir, "out"))).toBe(false);
});
