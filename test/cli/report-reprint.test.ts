// A watch cycle reprints the diagnostics of items that did not change, as the same objects; the
// report keeps each one's formatted text, and must format it again when what it shows changed.
import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { writeDiagnostics } from "../../src/cli/commands/build-report.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import type { SourceFile } from "../../src/model/source.js";

function printed(diagnostics: Diagnostic[], text: string, tty = false): string {
  let err = "";
  const stderr = Object.assign(new Writable({ write: (c, _e, cb) => ((err += c), cb()) }), { isTTY: tty });
  const stdout = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: false });
  const sources: SourceFile[] = [{ kind: "directive", id: "a/one", path: ".ai/directives/a/one.md", text }];
  writeDiagnostics({ sources, diagnostics }, { project: "/p", verbose: false }, { stdout, stderr, cwd: "/p", env: {} });
  return err;
}

const at = (line: number, column: number) => ({ line, column, offset: 0 });
const warning: Diagnostic = {
  code: "RYE2002",
  severity: "warning",
  message: "Input 'topic' is declared but no placeholder uses it.",
  loc: { source: ".ai/directives/a/one.md", start: at(2, 3), end: at(2, 8) },
};

describe("reprinting a diagnostic", () => {
  test("the same diagnostic over the same text prints the same report", () => {
    const text = "first line\n  topic here\nthird line\n";
    expect(printed([warning], text)).toBe(printed([warning], text));
    expect(printed([warning], text)).toContain("> 2 |   topic here");
  });

  test("the same diagnostic over a changed text shows the new line", () => {
    printed([warning], "first line\n  topic here\nthird line\n");
    const again = printed([warning], "first line\n  topic there\nthird line\n");
    expect(again).toContain("> 2 |   topic there");
    expect(again).not.toContain("topic here");
  });

  test("colour on and off are not mixed up", () => {
    const text = "first line\n  topic here\nthird line\n";
    const plain = printed([warning], text);
    const coloured = printed([warning], text, true);
    expect(plain).not.toContain("\u001b[");
    expect(coloured).toContain("\u001b[");
    expect(printed([warning], text)).toBe(plain);
  });
});
