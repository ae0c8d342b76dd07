import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parse as layoutGrammar } from "../../src/parse/generated/directive.js";
import { scanLayout } from "../../src/parse/scan-layout.js";

// scanLayout walks whole lines; grammar/directive.peggy is the specification it must agree with.
function viaGrammar(text: string, lang: "xml" | "yaml") {
  const { markers, fence } = layoutGrammar(text, { fenceLanguage: lang }) as { markers: unknown; fence: Record<string, unknown> | null };
  if (!fence) return { markers, fence };
  const { open, inner, close } = fence;
  return { markers, fence: { open, inner, close } };
}

const LINES = [
  "```xml", "```yaml", "```", "```  ", "```xml ", "```xmlx", "```xml2", "````", "`````", "```` ", "````xml", "````x", "``",
  "<!-- rye:signed:abc -->", "<!--rye:unsigned -->", "<!-- ryeos:x -->", "<!-- kiwi-mcp:y", "<!-- other:z -->", "<!-- rye",
  "", " ", "text", "# Title", "<directive/>", "\u00a0", "\u2028",
];
const doc = fc
  .tuple(fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 5 }) }), { maxLength: 14 }), fc.boolean())
  .map(([lines, trailing]) => lines.join("\n") + (trailing ? "\n" : ""));

describe("scanLayout agrees with grammar/directive.peggy", () => {
  test("on examples", () => {
    const examples = [
      "",
      "<!-- rye:unsigned -->\n# T\n\n```xml\n<directive/>\n```\n\nBody\n",
      "````\n```xml\n<a/>\n```\n````\n```xml\n<b/>\n```",
      "````md\n```xml\n<a/>\n```\n",
      "```xml\n<a/>",
      "```xml\n```",
      "<!-- ryeos:x -->\n<!-- rye:y -->\n```yaml\nname: x\n```\n",
    ];
    for (const t of examples) for (const lang of ["xml", "yaml"] as const) expect(scanLayout(t, lang)).toEqual(viaGrammar(t, lang));
  });

  test("on generated files", () => {
    fc.assert(
      fc.property(doc, fc.constantFrom("xml" as const, "yaml" as const), (t, lang) => {
        expect(scanLayout(t, lang)).toEqual(viaGrammar(t, lang));
      }),
      { numRuns: 1000 },
    );
  });
});
