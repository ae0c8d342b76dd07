import { mkdtempSync, readdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { pendingJournal, recoverOutput, writeOutput } from "../../src/output/write-output.js";
import { realFs } from "../../src/output/output-fs.js";
import { faultyFs } from "./fs-faults.js";
import { snapshot } from "./snapshot.js";


const v1 = new Map([["index.js", "one"], ["directives/a.js", "a"], ["directives/gone/b.js", "b"], ["knowledge/k.js", "k"]]);
const v2 = new Map([["index.js", "two"], ["directives/a.js", "a"], ["directives/new/c.js", "c"], ["knowledge/k.js", "k, changed"]]);

describe("the output journal", () => {
  test("a process killed at any file operation leaves out/ that recovers to the previous or the new output", () => {
    // How many operations one update takes, so every one of them is a kill point.
    const probe = join(mkdtempSync(join(tmpdir(), "rye-journal-")), "out");
    writeOutput(probe, v1);
    const counting = faultyFs(Number.POSITIVE_INFINITY, "crash");
    writeOutput(probe, v2, { fs: counting.fs });
    const ops = counting.count;
    expect(ops).toBeGreaterThan(10);

    const before = (() => { const o = join(mkdtempSync(join(tmpdir(), "rye-journal-")), "out"); writeOutput(o, v1); return snapshot(o); })();
    const after = snapshot(probe);
    const seen = { previous: 0, next: 0, replayed: 0 };
    for (let at = 1; at <= ops; at++) {
      const out = join(mkdtempSync(join(tmpdir(), "rye-journal-")), "out");
      writeOutput(out, v1);
      const faults = faultyFs(at, "crash");
      expect(() => writeOutput(out, v2, { fs: faults.fs }), `kill at operation ${at}`).toThrow();
      // What the next build does before anything else.
      if (pendingJournal(out)) seen.replayed++;
      recoverOutput(out, realFs);
      expect(pendingJournal(out)).toBeNull();
      const now = snapshot(out);
      if (JSON.stringify(now) === JSON.stringify(before)) seen.previous++;
      else {
        expect(now, `kill at operation ${at} left a mix`).toEqual(after);
        seen.next++;
      }
      // Nothing of the killed build is left, and the next build works.
      expect(readdirSync(join(out, ".rye")).filter((f) => f !== "lock" && f !== "record.seal")).toEqual([".gitignore"]);
      expect(writeOutput(out, v2)).toMatchObject({ removed: expect.any(Number) });
      expect(snapshot(out)).toEqual(after);
    }
    // Kills fell both before the commit point and after it, and some left a journal to replay.
    expect(seen.previous).toBeGreaterThan(0);
    expect(seen.next).toBeGreaterThan(0);
    expect(seen.replayed).toBeGreaterThan(0);
  });

  test("a build that fails before its commit point leaves out/ exactly as it was, and no staging", () => {
    const out = join(mkdtempSync(join(tmpdir(), "rye-journal-")), "out");
    writeOutput(out, v1);
    const before = snapshot(out);
    const faults = faultyFs(3, { errno: "EIO" }, ["writeFile"]);
    expect(() => writeOutput(out, v2, { fs: faults.fs })).toThrow(/an I\/O error while writing/);
    expect(snapshot(out)).toEqual(before);
    expect(readdirSync(join(out, ".rye")).filter((f) => f !== "record.seal")).toEqual([".gitignore"]);
  });

  test("a pending journal is reported until it is replayed", () => {
    const out = join(mkdtempSync(join(tmpdir(), "rye-journal-")), "out");
    writeOutput(out, v1);
    // Killed at the first rename after the journal's own (the commit point): nothing applied yet.
    const faults = faultyFs(2, "crash", ["rename"]);
    expect(() => writeOutput(out, v2, { fs: faults.fs })).toThrow(/killed at rename #2/);
    expect(pendingJournal(out)).toEqual({ journal: join(out, ".rye", "journal.json"), write: 4, remove: 1 });
    // Not yet applied: out/ still holds the previous output (and the journal says what comes).
    expect(snapshot(out)["index.js"]).toBe("one");
    expect(recoverOutput(out, realFs)).toBe("completed");
    expect(pendingJournal(out)).toBeNull();
    expect(snapshot(out)["index.js"]).toBe("two");
    expect(snapshot(out)["directives/gone/b.js"]).toBeUndefined();
    expect(existsSync(join(out, "directives", "gone"))).toBe(false);
  });

  test("new folders move into out/ whole, and a kill at any operation of that still recovers to all or nothing", () => {
    const many = new Map([...v1, ...Array.from({ length: 40 }, (_, i): [string, string] => [`directives/many/m${i}.js`, `m${i}`])]);
    const probe = join(mkdtempSync(join(tmpdir(), "rye-journal-")), "out");
    const renames = faultyFs(Number.POSITIVE_INFINITY, "crash", ["rename"]);
    writeOutput(probe, many, { fs: renames.fs });
    // The journal's own rename, directives/ and knowledge/ whole, then index.js, the record and .gitattributes one by one.
    expect(renames.count).toBe(6);
    const after = snapshot(probe);
    expect(after["directives/many/m39.js"]).toBe("m39");
    const counting = faultyFs(Number.POSITIVE_INFINITY, "crash");
    writeOutput(join(mkdtempSync(join(tmpdir(), "rye-journal-")), "out"), many, { fs: counting.fs });
    for (let at = 1; at <= counting.count; at++) {
      const out = join(mkdtempSync(join(tmpdir(), "rye-journal-")), "out");
      expect(() => writeOutput(out, many, { fs: faultyFs(at, "crash").fs }), `kill at operation ${at}`).toThrow();
      recoverOutput(out, realFs);
      const now = existsSync(out) ? snapshot(out) : {};
      // Nothing of the output, or all of it.
      if (Object.keys(now).length > 0) expect(now, `kill at operation ${at} left a mix`).toEqual(after);
      expect(writeOutput(out, many).removed).toBe(0);
      expect(snapshot(out)).toEqual(after);
    }
  });
});
