import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { readProject } from "../../src/project/read-project.js";
import { fileVerdict, skippedFolder } from "../../src/project/file-kinds.js";
import { outsideOf } from "../helpers/outside.js";

// A file of no kind its folder reads is a located warning (RYE1011) naming the kinds that are
// supported, and is not read; the rest of the project builds.
const FIXTURE = fileURLToPath(new URL("../fixtures/kinds/unknown/", import.meta.url));

describe("files of no supported kind", () => {
  test("each is one RYE1011 at line 1, column 1 of the file, naming its folder's kinds", () => {
    const { sources, diagnostics } = readProject(FIXTURE);
    expect(sources.map((s) => s.path)).toEqual([".ai/directives/ok.md"]);
    expect(diagnostics.map((d) => [d.code, d.severity, d.loc?.source, d.loc?.start.line, d.loc?.start.column])).toEqual([
      ["RYE1011", "warning", ".ai/directives/draft.markdown", 1, 1],
      ["RYE1011", "warning", ".ai/knowledge/notes.txt", 1, 1],
      ["RYE1011", "warning", ".ai/tools/hello.rb", 1, 1],
      ["RYE1011", "warning", ".ai/tools/scripts/Makefile", 1, 1],
    ]);
    const [draft, notes, rb, make] = diagnostics.map((d) => d.message);
    expect(draft).toBe("This file is not read: '.markdown' files are no item kind: directives are .md files. Rename it to one of those kinds, or move it out of .ai/.");
    expect(notes).toBe("This file is not read: '.txt' files are no item kind: knowledge items are .md, .yaml or .yml files. Rename it to one of those kinds, or move it out of .ai/.");
    expect(rb).toContain("'.rb' files are no item kind: tools are .py, .yaml, .yml, .js, .ts, .mjs or .cjs files (and .sh, .json and .toml files beside them are support files)");
    expect(make).toContain("a file without an extension is no item: tools are .py");
  });

  test("rye build warns once for each and still builds the rest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-unknown-kinds-"));
    try {
      cpSync(FIXTURE, dir, { recursive: true });
      let err = "";
      const io = { write: (s: string) => ((err += s), true) } as unknown as Io["stderr"];
      const code = await main(["build", "--allow-unsigned"], { stdout: io, stderr: io, cwd: dir, env: { USER_SPACE: join(outsideOf(dir), "user"), PATH: process.env.PATH } });
      expect(code, err).toBe(0);
      expect(err.match(/ - warning RYE1011: /g)).toHaveLength(4);
      expect(err).toMatch(/^\.ai\/knowledge\/notes\.txt:1:1 - warning RYE1011: This file is not read: '\.txt' files are no item kind/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the rules, one name at a time", () => {
  test("an extension of the folder's kinds is read, in the folder's probing order", () => {
    expect(fileVerdict("directive", "a.md")).toEqual({ read: ".md" });
    expect(fileVerdict("knowledge", "a.yml")).toEqual({ read: ".yml" });
    expect(fileVerdict("tool", "a.sh")).toEqual({ read: ".sh" });
    expect(fileVerdict("tool", "a.d.ts")).toEqual({ read: ".ts" });
    // A dot name with a kind's extension is an item, as the original finds `.ai/directives/.x.md` as `.x`.
    expect(fileVerdict("directive", ".x.md")).toEqual({ read: ".md" });
  });

  test("support files are skipped only beside tools; elsewhere they are of no kind", () => {
    expect(fileVerdict("tool", "package.json")).toHaveProperty("skip");
    expect(fileVerdict("tool", "Cargo.toml")).toHaveProperty("skip");
    expect(fileVerdict("knowledge", "data.json")).toHaveProperty("unsupported");
    expect(fileVerdict("directive", "a.yaml")).toHaveProperty("unsupported");
    expect(fileVerdict("directive", "a.sh")).toHaveProperty("unsupported");
  });

  test("hidden files are skipped in every folder; hidden folders only under tools/", () => {
    for (const kind of ["directive", "knowledge", "tool"] as const) {
      expect(fileVerdict(kind, ".DS_Store")).toHaveProperty("skip");
      expect(skippedFolder(kind, "node_modules")).not.toBeNull();
      expect(skippedFolder(kind, "__pycache__")).not.toBeNull();
    }
    expect(skippedFolder("tool", ".venv")).not.toBeNull();
    expect(skippedFolder("directive", ".drafts")).toBeNull();
    expect(skippedFolder("tool", "venv")).toBeNull();
    // Folder names are looked up as data: an item folder may be called anything.
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) expect(skippedFolder("directive", name)).toBeNull();
  });
});
