import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { compileToDir, source } from "../helpers/compile.js";
import { problemsOf, STRICT, ts } from "../helpers/strict-tsc.js";

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
  const dts = () => ts.sys.readFile(join(dir, "directives", "t", "summarize.d.ts"))!;

  test("Outputs spells out <outputs>: names, declared types, required", () => {
    expect(dts()).toContain(
      [
        "export interface Outputs {",
        "  /** The summary. */",
        "  summary: string;",
        "  /** How many words. */",
        "  words?: number;",
        "  /** Problems noticed. */",
        "  flags?: unknown[];",
        "}",
      ].join("\n"),
    );
  });

  test("input docs are sentences, with numbers and booleans unquoted in defaults", () => {
    const text = dts();
    expect(text).toContain('  /** The text, quoted "as is". */\n  text: string;');
    expect(text).toContain("  /** How many sentences. Default: 3. */\n  sentences?: number | bigint;");
    expect(text).toContain("  /** Refuse vague summaries. Default: true. */\n  strict?: boolean;");
    expect(text).toContain('  /** Tone. Default: "plain". */\n  tone?: string;');
  });

  test("the registry entry carries the directive's description, for completion of directives[\"", () => {
    const index = ts.sys.readFile(join(dir, "index.d.ts"))!;
    expect(index).toMatch(/  \/\*\* Summarize a text\. \*\/\n  readonly "t\/summarize": DirectiveModule<"t\/summarize", \{/);
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
