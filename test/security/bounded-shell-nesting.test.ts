import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build, type SourceFile } from "../../src/index.js";
import { classifyScript, unseenProgramIn } from "../../src/runtime/exec/shell-context.js";
import { MAX_SCRIPT_NESTING } from "../../src/runtime/exec/shell-lexer.js";
import { scriptPlaceholders } from "../../src/runtime/exec/shell-script.js";
import { plan, run } from "./interpreters-helpers.js";

// Class 4 for the shell reader: a `-c` script whose brackets nest deeper than MAX_SCRIPT_NESTING
// (128, upstream ryeos' AST depth) is refused as a script rye does not read, before the reader
// recurses, instead of overflowing the stack (which surfaced as an internal error). A generated
// ladder: every nesting construct at depths just under, at and over the limit, and far over it,
// through the classifier, the run (a refusal naming the placeholder, nothing spawned) and the build
// (RYE4012 located at the placeholder).

const dir = mkdtempSync(join(tmpdir(), "rye-shell-depth-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Each construct nested `n` deep with `{x}` in it, and the role {x} has when the script is readable.
 * A `{` before a placeholder on the same line would hide it from the placeholder scan (the original's
 * `\{([^}]+)\}`), so the brace constructs follow the placeholder.
 */
const CONSTRUCTS: [string, (n: number) => string, string][] = [
  // Unquoted, a substitution's output is split: the value is refused, but only after it is read.
  ["$(…)", (n) => `echo ${"$(echo ".repeat(n)}{x}${")".repeat(n)}`, "refuse"],
  ['a"$(…)"', (n) => `echo ${'a"$(echo '.repeat(n)}a{x}${')"'.repeat(n)}`, "full"],
  ["$(…) around backquotes", (n) => `echo ${"$(echo ".repeat(n)}\`echo {x}; touch ${MARKER}\`${")".repeat(n)}`, "refuse"],
  ["( … )", (n) => `${"( ".repeat(n)}echo {x}${" )".repeat(n)}`, "full"],
  ["{ …; }", (n) => `echo {x}; ${"{ ".repeat(n)}true${"; }".repeat(n)}`, "full"],
  ["${…}", (n) => `echo {x} ${"${a:-".repeat(n)}b${"}".repeat(n)}`, "full"],
  ["$(( ))", (n) => `echo $((${"(".repeat(n - 2)}{x}${")".repeat(n - 2)}))`, "refuse"],
];
const DEPTHS = [MAX_SCRIPT_NESTING - 1, MAX_SCRIPT_NESTING, MAX_SCRIPT_NESTING + 1, 5_000];
const TOO_DEEP = /brackets nested deeper than 128 levels/;

const classify = (script: string) => classifyScript(script, scriptPlaceholders(script, (n) => n === "x"));

const sources = (script: string): SourceFile[] => [
  { kind: "tool", id: "rye/core/primitives/execute", path: ".ai/tools/rye/core/primitives/execute.yaml", ext: ".yaml", space: "project", text: "tool_type: primitive\nexecutor_id: null\n" },
  { kind: "tool", id: "rt/deep", path: ".ai/tools/rt/deep.yaml", ext: ".yaml", space: "project", text: `tool_type: runtime\nexecutor_id: rye/core/primitives/execute\nconfig:\n  command: /bin/sh\n  args: ["-c", ${JSON.stringify(script)}]\n` },
  { kind: "tool", id: "demo/deep", path: ".ai/tools/demo/deep.py", ext: ".py", space: "project", text: '__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rt/deep"\nCONFIG_SCHEMA = {"type": "object", "properties": {"x": {"type": "string"}}}\n' },
];

describe(`shell scripts nest at most ${MAX_SCRIPT_NESTING} levels`, () => {
  it("the limit is upstream's AST depth", () => expect(MAX_SCRIPT_NESTING).toBe(128));

  for (const [name, make, readable] of CONSTRUCTS) {
    it(`${name}: read up to the limit, refused past it, never a crash (ladder ${DEPTHS.join(", ")})`, async () => {
      for (const depth of DEPTHS) {
        const script = make(depth);
        const [rec] = classify(script);
        const where = `${name} × ${depth}`;
        if (depth <= MAX_SCRIPT_NESTING) {
          expect(rec!.role, where).toBe(readable);
          expect(rec!.reason ?? "", where).not.toMatch(TOO_DEEP);
          continue;
        }
        expect(rec, where).toMatchObject({ role: "refuse" });
        expect(rec!.reason, where).toMatch(TOO_DEEP);
        expect(unseenProgramIn(script), where).toMatch(TOO_DEEP);
        const r = await run(dir, plan(dir, "/bin/sh", ["-c", script]), { x: "a" });
        expect(r.status, where).toBe("error");
        expect(String(r.error), where).toMatch(/^placeholder '\{x\}' sits in a script with brackets nested deeper than 128 levels, which rye does not read/);
        expect(existsSync(MARKER), where).toBe(false);
        const { diagnostics } = build(sources(script), "test");
        const found = diagnostics.find((d) => d.code === "RYE4012");
        expect(found?.message, where).toMatch(TOO_DEEP);
        // Located at the placeholder: line 5 of the runtime, the column of `{x}` in the quoted script.
        expect(found?.loc?.source, where).toBe(".ai/tools/rt/deep.yaml");
        expect(found?.loc?.start.line, where).toBe(5);
        expect(found?.loc?.start.column, where).toBe(`  args: ["-c", ${JSON.stringify(script)}`.indexOf("{x}") + 1);
        expect(diagnostics.filter((d) => d.code === "RYE1010"), where).toEqual([]);
      }
    }, 60_000);
  }

  it("nested shells' literal -c scripts are read to the same depth, and no deeper", () => {
    let inner = "true";
    for (let k = 0; k < 3; k++) inner = `sh -c ${JSON.stringify(inner)}`;
    expect(unseenProgramIn(inner)).toBeNull();
    expect(unseenProgramIn(`${inner}; sh f`)).toMatch(/`sh f` runs a shell that reads its program from a file or stdin/);
  });
});
