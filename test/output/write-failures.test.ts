// A full disk and a permission denied while writing out/: a located RYE8006 naming the file, the
// previous output untouched, and no lock, journal or staged file left behind. Injected failures
// cover every write of an update; real ones run a `rye build` process on a 1 MiB tmpfs (in a
// private mount namespace, so nothing outlives the test) and as an unprivileged user.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { OutputError, outputFailure, writeOutput } from "../../src/output/write-output.js";
import { faultyFs } from "./fs-faults.js";
import { snapshot } from "./snapshot.js";
import { cannotRunAsNobody, isRoot, NOBODY } from "../helpers/as-nobody.js";

const BIN = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));


const v1 = new Map([["index.js", "one"], ["directives/a.js", "a"], ["directives/b.js", "b"]]);
const v2 = new Map([["index.js", "two"], ["directives/a.js", "a2"], ["directives/c/d.js", "d"]]);

describe("write failures (injected)", () => {
  test("ENOSPC at any write of an update: RYE8006 at that file, out/ as it was, no lock or temporary file left", () => {
    const counting = faultyFs(Number.POSITIVE_INFINITY, { errno: "ENOSPC" }, ["writeFile"]);
    writeOutput(join(mkdtempSync(join(tmpdir(), "rye-full-")), "out"), v1);
    const probe = join(mkdtempSync(join(tmpdir(), "rye-full-")), "out");
    writeOutput(probe, v1);
    writeOutput(probe, v2, { fs: counting.fs });
    expect(counting.count).toBeGreaterThanOrEqual(4);
    for (let at = 1; at <= counting.count; at++) {
      const out = join(mkdtempSync(join(tmpdir(), "rye-full-")), "out");
      writeOutput(out, v1);
      const before = snapshot(out);
      let error: unknown;
      try {
        writeOutput(out, v2, { fs: faultyFs(at, { errno: "ENOSPC" }, ["writeFile"]).fs });
      } catch (e) {
        error = e;
      }
      expect(error, `write #${at}`).toBeInstanceOf(OutputError);
      const diagnostic = outputFailure(out, error);
      expect(diagnostic).toMatchObject({ code: "RYE8006", severity: "error", loc: { start: { line: 1, column: 1 } } });
      expect(diagnostic.message).toMatch(/^Writing the output failed: no space left on the device while writing it\. The previous output is unchanged\.$/);
      expect(diagnostic.message).toContain("The previous output is unchanged");
      // Located at the output file (or the journal) being written when the disk filled up.
      expect(diagnostic.loc!.source.startsWith(out)).toBe(true);
      expect(snapshot(out)).toEqual(before);
      expect(readdirSync(join(out, ".rye")).filter((f) => f !== "record.seal")).toEqual([".gitignore"]);
    }
  });

  test("EACCES creating out/: RYE8006 at out/, and nothing is created", () => {
    const root = mkdtempSync(join(tmpdir(), "rye-denied-"));
    const out = join(root, "build", "out");
    let error: unknown;
    try {
      writeOutput(out, v1, { fs: faultyFs(2, { errno: "EACCES" }, ["mkdir"]).fs });
    } catch (e) {
      error = e;
    }
    const diagnostic = outputFailure(out, error);
    expect(diagnostic).toMatchObject({ code: "RYE8006", loc: { source: out } });
    expect(diagnostic.message).toContain("permission denied while creating");
    expect(readdirSync(root)).toEqual([]);
  });
});

/** A small project: `count` directives whose bodies are `size` bytes. */
function project(dir: string, count: number, size: number, version = "one"): void {
  for (let i = 0; i < count; i++) {
    const file = join(dir, ".ai", "directives", "d", `d${i}.md`);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, `# D${i}\n\n\`\`\`xml\n<directive name="d${i}" version="1.0.0">\n  <metadata><description>D</description></metadata>\n  <inputs><input name="who" type="string" required="true">Who</input></inputs>\n</directive>\n\`\`\`\n\nGreet {input:who} (${version}). ${"x".repeat(size)}\n`);
  }
}

const hasUnshare = isRoot && spawnSync("unshare", ["-m", "true"]).status === 0;

describe("write failures (real)", () => {
  test.skipIf(!hasUnshare)(`a full disk: rye build on a 1 MiB tmpfs reports RYE8006 and leaves the previous out/${hasUnshare ? "" : " (skipped: needs root and unshare -m to mount a tmpfs)"}`, () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-tmpfs-"));
    const copy = join(dir, "copy");
    project(join(dir, "p"), 2, 10);
    const p = join(dir, "p");
    // The output folder must lie inside the project: the tmpfs is mounted in it.
    const mnt = join(p, "mnt");
    mkdirSync(mnt);
    // Inside a private mount namespace: mount, build small (fits), grow the project (does not fit),
    // build again, and copy what the tmpfs holds out before the namespace (and the mount) ends.
    const script = [
      `mount -t tmpfs -o size=1m tmpfs ${mnt}`,
      `node ${BIN} build --project ${p} --out ${mnt}/out --allow-unsigned > ${dir}/first.txt 2>&1; echo $? > ${dir}/first.code`,
      `node -e 'const fs=require("fs");for(let i=0;i<40;i++){fs.mkdirSync(process.argv[1]+"/.ai/directives/big",{recursive:true});fs.writeFileSync(process.argv[1]+"/.ai/directives/big/b"+i+".md",fs.readFileSync(process.argv[1]+"/.ai/directives/d/d0.md","utf8").replace(/d0/g,"b"+i)+"y".repeat(20000))}' ${p}`,
      `node ${BIN} build --project ${p} --out ${mnt}/out --allow-unsigned > ${dir}/second.txt 2>&1; echo $? > ${dir}/second.code`,
      `cp -a ${mnt}/out ${copy}`,
    ].join(" && ");
    const r = spawnSync("unshare", ["-m", "sh", "-c", script], { encoding: "utf8", env: { ...process.env, USER_SPACE: dir, NO_COLOR: "1" } });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, "first.code"), "utf8").trim()).toBe("0");
    expect(readFileSync(join(dir, "second.code"), "utf8").trim()).toBe("1");
    const second = readFileSync(join(dir, "second.txt"), "utf8");
    expect(second).toMatch(/mnt\/out\/[^ ]+:1:1 - error RYE8006: Writing the output failed: no space left on the device while writing it\./);
    expect(second).not.toMatch(/^\s+at /m);
    // The previous output, whole; no lock, journal or staging.
    expect(Object.keys(snapshot(copy)).filter((f) => f.startsWith("directives/"))).toEqual(["directives/d/d0.d.ts", "directives/d/d0.js", "directives/d/d1.d.ts", "directives/d/d1.js"]);
    expect(readdirSync(join(copy, ".rye")).filter((f) => f !== "record.seal")).toEqual([".gitignore"]);
  });

  const asNobodySkip = cannotRunAsNobody(BIN);
  test.skipIf(asNobodySkip !== null)(`permission denied: a read-only folder in out/ is RYE8006 at that folder, the previous out/ stays${asNobodySkip === null ? "" : ` (skipped: ${asNobodySkip})`}`, () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-eacces-"));
    project(dir, 2, 10);
    const env = { PATH: process.env.PATH, USER_SPACE: dir, NO_COLOR: "1" };
    const asNobody = () => spawnSync(process.execPath, [BIN, "build", "--project", dir, "--allow-unsigned"], { cwd: dir, uid: NOBODY, gid: NOBODY, encoding: "utf8", env });
    const chownAll = (path: string) => {
      chownSync(path, NOBODY, NOBODY);
      for (const e of readdirSync(path, { withFileTypes: true })) (e.isDirectory() ? chownAll : (p: string) => chownSync(p, NOBODY, NOBODY))(join(path, e.name));
    };
    chownAll(dir);
    expect(asNobody().status).toBe(0);
    const before = snapshot(join(dir, "out"));
    project(dir, 2, 10, "two");
    chownAll(dir);
    chmodSync(join(dir, "out", "directives", "d"), 0o555);
    const r = asNobody();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/out\/directives\/d:1:1 - error RYE8006: Writing the output failed: permission denied while writing into it\./);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(snapshot(join(dir, "out"))).toEqual(before);
    expect(readdirSync(join(dir, "out", ".rye")).filter((f) => f !== "record.seal")).toEqual([".gitignore"]);
  });
});
