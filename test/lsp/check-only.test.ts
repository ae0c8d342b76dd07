// The language server's first answer checks only the opened directives (Checker.checkOnly). For
// every directive of the diagnostic fixtures, opened in a project holding all of them (so parents,
// callers and duplicates resolve as in a build), it must give exactly what the whole check gives
// that file.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { Checker } from "../../src/lsp/checker.js";
import type { SourceFile } from "../../src/model/source.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/diagnostics/", import.meta.url));
const sources: SourceFile[] = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".md") && !f.endsWith("_knowledge.md"))
  .map((f) => ({ kind: "directive", id: `fx/${f.slice(0, -3)}`, path: `.ai/directives/fx/${f}`, text: readFileSync(join(FIXTURES, f), "utf8") }));

describe("Checker.checkOnly", () => {
  test("gives each directive exactly the diagnostics the whole check gives it", () => {
    const whole = new Checker().check(sources, null, []);
    expect(sources.length).toBeGreaterThan(30);
    let withDiagnostics = 0;
    for (const src of sources) {
      const expected = whole.filter((d) => d.loc?.source === src.path);
      if (expected.length > 0) withDiagnostics++;
      expect(new Checker().checkOnly(sources, null, [src]), src.path).toEqual(expected);
    }
    expect(withDiagnostics).toBeGreaterThan(20);
  });

  test("records nothing: the next check is still a whole one", () => {
    const checker = new Checker();
    checker.checkOnly(sources, null, [sources[0]!]);
    expect(checker.fresh).toBe(true);
    checker.check(sources, null, []);
    expect(checker.fresh).toBe(false);
  });
});
