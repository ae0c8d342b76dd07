import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { compileToDir, source } from "../helpers/compile.js";
import { languageService, problemsOf, STRICT, ts } from "../helpers/strict-tsc.js";

const DIRECTIVE = `# Summarize

\`\`\`xml
<directive name="summarize" version="1.0.0">
  <metadata><description>Summarize a text</description></metadata>
  <inputs>
    <input name="text" type="string" required="true">The text, quoted "as is"</input>
    <input name="sentences" type="integer" required="false" default="3">How many sentences</input>
    <input name="strict" type="boolean" required="false" default="True">Refuse vague summaries.</input>
    <input name="tone" type="string" required="false" default="plain">Tone</input>
  </inputs>
  <outputs>
    <output name="summary" type="string" required="true">The summary</output>
    <output name="words" type="integer">How many words</output>
    <output name="flags" type="array" required="false">Problems noticed</output>
  </outputs>
</directive>
\`\`\`

Summarize {input:text} in {input:sentences} sentences ({input:strict}, {input:tone}).
`;

describe("declarations", () => {
  const { dir } = compileToDir([source("t/summarize", DIRECTIVE)]);
  const index = () => ts.sys.readFile(join(dir, "index.d.ts"))!;

  test("the registry spells out <outputs>: names, declared types, required", () => {
    expect(index()).toContain(
      [
        "}, {",
        "/** The summary. */",
        "summary: string;",
        "/** How many words. */",
        "words?: number;",
        "/** Problems noticed. */",
        "flags?: unknown[];",
        "}];",
      ].join("\n"),
    );
  });

  test("input docs are sentences, with numbers and booleans unquoted in defaults", () => {
    const text = index();
    expect(text).toContain('/** The text, quoted "as is". */\ntext: string;');
    expect(text).toContain("/** How many sentences. Default: 3. */\nsentences?: IntInput;");
    expect(text).toContain("/** Refuse vague summaries. Default: true. */\nstrict?: boolean;");
    expect(text).toContain('/** Tone. Default: "plain". */\ntone?: string;');
  });

  test("the registry entry carries the directive's description, for completion of directives[\"", () => {
    expect(index()).toMatch(/\n\/\*\* Summarize a text\. \*\/\n"t\/summarize": \[\{\n/);
  });

  test("an editor shows each input's and output's description on hover, through the module and the registry", () => {
    const consumer = join(dir, "hover.ts");
    const code = `import { render, type Outputs } from "./directives/t/summarize.js";
import { directives } from "./index.js";
render({ text: "a", sentences: 2 });
directives["t/summarize"].render({ tone: "dry", text: "b" });
const out: Outputs = { summary: "s" };
export { out };
`;
    writeFileSync(consumer, code);
    const service = languageService(consumer, dir);
    const hover = (needle: string) => {
      const info = service.getQuickInfoAtPosition(consumer, code.indexOf(needle) + 1);
      return ts.displayPartsToString(info?.documentation);
    };
    expect(hover("text: \"a\"")).toBe('The text, quoted "as is".');
    expect(hover("sentences: 2")).toBe("How many sentences. Default: 3.");
    expect(hover("tone: \"dry\"")).toBe('Tone. Default: "plain".');
    expect(hover("summary: \"s\"")).toBe("The summary.");
    expect(hover('"t/summarize"]')).toBe("Summarize a text.");
    expect(problemsOf(service.getProgram()!, dir)).toEqual([]);
  });

  test("Outputs type-checks a return value, and rejects a wrong one, under strict settings", () => {
    const consumer = join(dir, "consumer.ts");
    writeFileSync(
      consumer,
      `import type { Outputs } from "./directives/t/summarize.js";
const ok: Outputs = { summary: "s", words: 3 };
// @ts-expect-error: summary is required
const missing: Outputs = { words: 3 };
// @ts-expect-error: words is a number
const wrong: Outputs = { summary: "s", words: "three" };
export { ok, missing, wrong };
`,
    );
    const program = ts.createProgram([consumer], STRICT);
    expect(problemsOf(program, dir)).toEqual([]);
  });
});
