// In the V8 of Node 20, an object copied by a spread and then given another property gets a shape
// (hidden class) of its own once the spread's inline cache is warm, after about eight objects; every
// site that reads such objects then takes V8's slowest path. The objects a build makes per item must
// keep one shape each: checked on the compiled modules (`npm test` builds them first) with V8's own
// test hooks, over forty directives so that a warm spread would show.
import { execFileSync } from "node:child_process";
import { describe, expect, test } from "vitest";

const dist = (rel: string) => JSON.stringify(new URL(`../../dist/${rel}`, import.meta.url).href);

describe("objects made per item", () => {
  test("outcomes handed on by the compiler share one shape", () => {
    const script = `
      const { build } = await import(${dist("compile/build.js")});
      const directive = (i) => ["<!-- rye:unsigned -->", "# D" + i, "", "\`\`\`xml", '<directive name="d' + i + '" version="1.0.0">', "  <metadata><description>Item " + i + ".</description></metadata>", '  <inputs><input name="x" type="string" required="true">X.</input></inputs>', "</directive>", "\`\`\`", "", "Use {input:x} now.", ""].join("\\n");
      const sources = Array.from({ length: 40 }, (_, i) => ({ kind: "directive", id: "d" + i, path: ".ai/directives/d" + i + ".md", text: directive(i) }));
      const outcomes = [];
      build(sources, "0.0.0", { items: { wholeBuild: false, onItem: (src, outcome) => outcomes.push(outcome) } });
      console.log(JSON.stringify({ n: outcomes.length, registry: outcomes.every((o) => "registry" in o), same: outcomes.every((o) => %HaveSameMap(o, outcomes[0])), fast: outcomes.every((o) => %HasFastProperties(o)) }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", script], { encoding: "utf8" }));
    expect(out).toEqual({ n: 40, registry: true, same: true, fast: true });
  });
});
