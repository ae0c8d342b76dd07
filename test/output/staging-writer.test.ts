// Build workers stage files themselves (StagingWriter) and the transaction adopts them: the same
// path checks as OutputTransaction.write on both sides, nothing reaches out/ before the commit, and
// an abort discards what a worker staged.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseRecord } from "../../src/output/output-record.js";
import { OutputTransaction, StagingWriter, writeOutput } from "../../src/output/write-output.js";
import { snapshot } from "./snapshot.js";

const outDir = () => join(mkdtempSync(join(tmpdir(), "rye-stage-")), "out");

describe("files staged by another thread", () => {
  test("appear in out/ only when the transaction that adopted them commits", () => {
    const out = outDir();
    const tx = OutputTransaction.begin(out);
    const writer = new StagingWriter(tx.outDir, tx.owned);
    writer.write("directives/a.js", "a");
    expect(writer.staged.has("directives/a.js")).toBe(true);
    expect(existsSync(join(out, "directives/a.js"))).toBe(false);
    tx.adopt("directives/a.js");
    expect(tx.commit()).toEqual({ written: 3, removed: 0 }); // with the record and .gitattributes
    expect(readFileSync(join(out, "directives/a.js"), "utf8")).toBe("a");
    expect(parseRecord(readFileSync(join(out, "rye-files.json"), "utf8"))).toContain("directives/a.js");
  });

  test("a transaction that aborts discards them, and out/ stays as it was", () => {
    const out = outDir();
    writeOutput(out, new Map([["index.js", "one"]]));
    const before = snapshot(out);
    const tx = OutputTransaction.begin(out);
    const writer = new StagingWriter(tx.outDir, tx.owned);
    writer.write("index.js", "two");
    tx.adopt("index.js");
    tx.abort();
    expect(snapshot(out)).toEqual(before);
    expect(existsSync(join(out, ".rye", "staging"))).toBe(false);
  });

  test("paths outside out/ or owned by rye bundle are refused on both sides, and nothing is written", () => {
    const out = outDir();
    const tx = OutputTransaction.begin(out);
    const writer = new StagingWriter(tx.outDir, tx.owned);
    for (const rel of ["../escape.js", "/abs.js", "directives/../../x.js", "bundle.mjs"]) {
      expect(() => writer.write(rel, "x")).toThrow(/refusing to write output path/);
      expect(() => tx.adopt(rel)).toThrow(/refusing to write output path/);
    }
    tx.abort();
    expect(existsSync(join(out, "..", "escape.js"))).toBe(false);
    expect(existsSync(join(out, "..", "x.js"))).toBe(false);
  });
});
