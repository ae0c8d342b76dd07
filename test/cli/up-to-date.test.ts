import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { compilerFiles } from "../../src/cache/build-cache.js";
import { bookkeepingFor } from "../../src/cache/bookkeeping-secret.js";
import { age } from "../helpers/age-tree.js";

// The stat-only answer to "did anything change?" must never hide a change: every case below edits
// something after a stamp was recorded and expects the same out/ a build from scratch gives.
const TEST_USER = mkdtempSync(join(tmpdir(), "rye-user-"));

async function rye(dir: string, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const stream = (add: (s: string) => void) => ({ write: (s: string) => (add(s), true), isTTY: false }) as unknown as Io["stdout"];
  const io = { stdout: stream((s) => (stdout += s)), stderr: stream((s) => (stderr += s)), cwd: dir, env: { USER_SPACE: TEST_USER } } as Io;
  const code = await main(["build", "--project", dir, ...args], io);
  return { code, stdout, stderr };
}

const directive = (name: string, body: string) => `# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0">
  <metadata>
    <description>${name} for the up-to-date tests.</description>
  </metadata>
  <inputs>
    <input name="topic" type="string" required="true">What to write about.</input>
    <input name="unused" type="string" required="false">Declared, never used: a warning.</input>
  </inputs>
</directive>
\`\`\`

<process>
  ${body}
</process>
`;


const stampOf = (dir: string) => join(dir, ".rye-cache", "up-to-date.json");
const cacheOf = (dir: string) => join(dir, ".rye-cache", "build.json");

/** A built project whose stamp is recorded, so the next unchanged build answers from it. */
async function stamped(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "rye-stamp-"));
  mkdirSync(join(dir, ".ai", "directives", "t"), { recursive: true });
  writeFileSync(join(dir, ".ai", "directives", "t", "one.md"), directive("one", "Write about {input:topic}."));
  writeFileSync(join(dir, ".ai", "directives", "t", "two.md"), directive("two", "Summarise {input:topic}."));
  age(join(dir, ".ai"));
  expect((await rye(dir)).code).toBe(0);
  age(join(dir, "out"));
  age(TEST_USER); // the signing key the first build generated
  expect(existsSync(stampOf(dir))).toBe(false); // out/ was just written: not trusted yet
  expect((await rye(dir)).code).toBe(0);
  expect(existsSync(stampOf(dir))).toBe(true);
  return dir;
}

const withoutTime = (s: string) => s.replace(/ in \d+ ms/, "");

describe("rye build when nothing changed", () => {
  test("repeats the last report, code frames included, without compiling or writing", async () => {
    const dir = await stamped();
    const before = await rye(dir);
    rmSync(cacheOf(dir)); // the incremental cache is not even read on this path
    const again = await rye(dir);
    expect(again.code).toBe(0);
    expect(withoutTime(again.stdout)).toBe(withoutTime(before.stdout));
    expect(again.stdout).toContain("Compiled 2 of 2 directives");
    expect(again.stdout).toContain("(0 files written)");
    expect(again.stderr).toBe(before.stderr);
    expect(again.stderr).toContain("RYE2002");
    expect(again.stderr).toContain("> ");
    expect(existsSync(cacheOf(dir))).toBe(false);
  });

  test("prints the code frames a build prints, from the lines the stamp recorded, reading no source", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-stamp-"));
    mkdirSync(join(dir, ".ai", "directives", "t"), { recursive: true });
    // Windows line endings in one file: frames show the lines as the build normalised them.
    const crlf = directive("one", "Write about {input:topic}.").replace(/\n/g, "\r\n");
    writeFileSync(join(dir, ".ai", "directives", "t", "one.md"), crlf);
    writeFileSync(join(dir, ".ai", "directives", "t", "two.md"), directive("two", "Summarise {input:topic}."));
    age(join(dir, ".ai"));
    expect((await rye(dir)).code).toBe(0);
    age(join(dir, "out"));
    age(TEST_USER);
    const built = await rye(dir); // not answered from a stamp: it records one
    expect(existsSync(stampOf(dir))).toBe(true);
    expect(built.stderr).toContain("> 10 |");
    const stamp = JSON.parse(readFileSync(stampOf(dir), "utf8").replace(/^rye-mac:[^\n]*\n/, "")) as { excerpts: Record<string, { count: number; lines: Record<string, string> }> };
    expect(Object.keys(stamp.excerpts).sort()).toEqual([".ai/directives/t/one.md", ".ai/directives/t/two.md"]);
    // The sources' text is not read again: what the stamp holds is what is printed.
    const marker = stamp.excerpts[".ai/directives/t/one.md"]!;
    marker.lines["10"] = marker.lines["10"]!.replace("unused", "UNUSED");
    // Sealed again as the build seals it (an unsealed stamp is ignored: see hostile-tree.test.ts).
    writeFileSync(stampOf(dir), bookkeepingFor(dir, { USER_SPACE: TEST_USER }).seal("up-to-date", resolve(dir), JSON.stringify(stamp)));
    const again = await rye(dir);
    expect(again.stdout).toContain("(0 files written)");
    expect(again.stderr).toBe(built.stderr.replace('<input name="unused"', '<input name="UNUSED"'));
  });

  test("an edited source is rebuilt", async () => {
    const dir = await stamped();
    appendFileSync(join(dir, ".ai", "directives", "t", "one.md"), "\nOne more line.\n");
    const r = await rye(dir);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("(0 files written)");
    expect(readFileSync(join(dir, "out", "directives", "t", "one.js"), "utf8")).toContain("One more line.");
    expect((await rye(dir, "--check")).code).toBe(0);
  });

  test("an added and a removed source change the build", async () => {
    const dir = await stamped();
    writeFileSync(join(dir, ".ai", "directives", "t", "three.md"), directive("three", "List {input:topic}."));
    expect((await rye(dir)).stdout).toContain("Compiled 3 of 3 directives");
    rmSync(join(dir, ".ai", "directives", "t", "two.md"));
    expect((await rye(dir)).stdout).toContain("Compiled 2 of 2 directives");
    expect(existsSync(join(dir, "out", "directives", "t", "two.js"))).toBe(false);
    expect((await rye(dir, "--check")).code).toBe(0);
  });

  test("a deleted output file is written again", async () => {
    const dir = await stamped();
    const js = join(dir, "out", "directives", "t", "two.js");
    const text = readFileSync(js, "utf8");
    rmSync(js);
    const r = await rye(dir);
    expect(r.code).toBe(0);
    expect(readFileSync(js, "utf8")).toBe(text);
    expect((await rye(dir, "--check")).code).toBe(0);
  });

  test("a change among the compiler's own files is not answered from the stamp", async () => {
    const dir = await stamped();
    rmSync(cacheOf(dir));
    // A file added to or removed from the compiler changes its folder, which the stamp records.
    const compiler = compilerFiles().dirs[0]!;
    const before = statSync(compiler);
    utimesSync(compiler, before.atime, new Date());
    try {
      const r = await rye(dir);
      expect(r.code).toBe(0);
      expect(existsSync(cacheOf(dir))).toBe(true); // the build engine ran
    } finally {
      utimesSync(compiler, before.atime, before.mtime);
    }
  });

  // The item files are not stat-ed before the build reads them: the read's own stat of each open
  // file is what the stamp records. It must be what a stat of the path says, or no build would
  // ever be answered from the stamp (or a stale one would).
  test("records each item file as a stat of its path gives it, from the stat the build's read took", async () => {
    const dir = await stamped();
    const stamp = JSON.parse(readFileSync(stampOf(dir), "utf8").replace(/^rye-mac:[^\n]*\n/, "")) as { inputs: [string, number, number, number][] };
    const items = stamp.inputs.filter(([path]) => path.endsWith(".md"));
    expect(items.map(([path]) => path).sort()).toEqual(["one.md", "two.md"].map((n) => join(dir, ".ai", "directives", "t", n)));
    for (const [path, size, mtimeMs, ino] of items) {
      const st = statSync(path);
      expect([size, mtimeMs, ino]).toEqual([st.size, st.mtimeMs, st.ino]);
    }
  });

  test.skipIf(process.platform === "win32")("items read through a symlinked folder are answered from the stamp, and an edit there is rebuilt", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-stamp-"));
    mkdirSync(join(dir, "shared"), { recursive: true });
    mkdirSync(join(dir, ".ai", "directives"), { recursive: true });
    writeFileSync(join(dir, "shared", "linked.md"), directive("linked", "Write about {input:topic}."));
    symlinkSync(join("..", "..", "shared"), join(dir, ".ai", "directives", "s"));
    age(join(dir, ".ai"));
    age(join(dir, "shared"));
    expect((await rye(dir)).code).toBe(0);
    age(join(dir, "out"));
    age(TEST_USER);
    expect((await rye(dir)).code).toBe(0);
    expect(existsSync(stampOf(dir))).toBe(true);
    expect((await rye(dir)).stdout).toContain("(0 files written)");
    appendFileSync(join(dir, "shared", "linked.md"), "\nOne more line.\n");
    const r = await rye(dir);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "out", "directives", "s", "linked.js"), "utf8")).toContain("One more line.");
  });

  test("other flags or another output folder are not answered from the stamp", async () => {
    const dir = await stamped();
    const r = await rye(dir, "--out", "elsewhere");
    expect(r.code).toBe(0);
    expect(statSync(join(dir, "elsewhere", "directives", "t", "one.js")).isFile()).toBe(true);
  });

  test("--emit-ts after a build without it writes out/ts/ (the stamp of a build without it does not answer)", async () => {
    const dir = await stamped();
    const r = await rye(dir, "--emit-ts");
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\(0 files written\)/);
    expect(statSync(join(dir, "out", "ts", "directives", "t", "one.ts")).isFile()).toBe(true);
  });

  test("--check answers from the stamp on an unchanged tree, and runs the whole check once a source changed", async () => {
    const dir = await stamped();
    const clean = await rye(dir, "--check");
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/out is up to date/);
    expect(clean.stderr).toMatch(/RYE2002/); // the recorded warning, printed as the whole check prints it
    writeFileSync(join(dir, ".ai", "directives", "t", "one.md"), directive("one", "Write about {input:topik}."));
    const broken = await rye(dir, "--check");
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/RYE2001/);
  });
});
