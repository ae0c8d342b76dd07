// A warm rebuild of a long-lived process names only the files it writes or no longer produces
// (OutputTransaction.carryKnown): every other file of the last commit stays, the record is rewritten
// only when files come or go, and a dropped file is deleted only if a build recorded it as its own.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { OutputTransaction, writeOutput } from "../../src/output/write-output.js";
import { parseRecord, RECORD } from "../../src/output/output-record.js";

function firstCommit() {
  const out = join(mkdtempSync(join(tmpdir(), "rye-carry-")), "out");
  writeOutput(out, new Map([["a.js", "a\n"], ["d/b.js", "b\n"], ["d/c.js", "c\n"]]));
  // What a long-lived process knows after that commit: the files it produced.
  const tx = OutputTransaction.begin(out);
  for (const rel of ["a.js", "d/b.js", "d/c.js"]) tx.keep(rel);
  tx.commit();
  return { out, known: tx.known };
}

test("a carried-over commit keeps the unnamed files, writes the named one, and leaves the record alone", () => {
  const { out, known } = firstCommit();
  const record = readFileSync(join(out, RECORD), "utf8");
  const tx = OutputTransaction.begin(out, { known });
  expect(tx.knowsOutput).toBe(true);
  tx.carryKnown();
  tx.write("d/b.js", "b2\n");
  expect(tx.commit()).toEqual({ written: 1, removed: 0 });
  expect(readFileSync(join(out, "d/b.js"), "utf8")).toBe("b2\n");
  expect(readFileSync(join(out, "a.js"), "utf8")).toBe("a\n");
  expect(readFileSync(join(out, "d/c.js"), "utf8")).toBe("c\n");
  expect(readFileSync(join(out, RECORD), "utf8")).toBe(record);
  expect([...tx.produced].sort()).toEqual([...known.owned].sort());
});

test("a dropped file is deleted and a new one added, and the record then lists exactly the files produced", () => {
  const { out, known } = firstCommit();
  const tx = OutputTransaction.begin(out, { known });
  tx.carryKnown();
  tx.drop("d/c.js");
  tx.write("e.js", "e\n");
  expect(tx.commit()).toEqual({ written: 2, removed: 1 });
  expect(existsSync(join(out, "d/c.js"))).toBe(false);
  expect(readFileSync(join(out, "e.js"), "utf8")).toBe("e\n");
  const record = parseRecord(readFileSync(join(out, RECORD), "utf8"))!;
  for (const rel of ["a.js", "d/b.js", "e.js"]) expect(record.has(rel), rel).toBe(true);
  expect(record.has("d/c.js")).toBe(false);
  expect(tx.produced.has("d/c.js")).toBe(false);
  expect(tx.produced.has("e.js")).toBe(true);
});

test("a dropped file no build recorded is never deleted", () => {
  const { out, known } = firstCommit();
  writeFileSync(join(out, "mine.txt"), "the user's\n");
  const tx = OutputTransaction.begin(out, { known });
  tx.carryKnown();
  tx.drop("mine.txt");
  expect(tx.commit()).toEqual({ written: 0, removed: 0 });
  expect(readFileSync(join(out, "mine.txt"), "utf8")).toBe("the user's\n");
});

test("only a transaction over output this process knows can carry it over", () => {
  const { out } = firstCommit();
  const tx = OutputTransaction.begin(out);
  try {
    expect(tx.knowsOutput).toBe(false);
    expect(() => tx.carryKnown()).toThrow(/known output/);
  } finally {
    tx.abort();
  }
});
