import { describe, expect, test } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import { compileToDir, importDirective, source } from "../helpers/compile.js";

const directive = (name: string, inputs: string, body: string, extraMeta = "", desc = "A test directive.") => `<!-- rye:unsigned -->
# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0">
  <metadata>
    <description>${desc}</description>
    <category>t</category>
    <permissions>
      <execute><tool>rye.file-system.*</tool></execute>
    </permissions>
${extraMeta}  </metadata>
  <inputs>
${inputs}  </inputs>
  <outputs>
    <output name="result" required="true">What came out</output>
    <output name="count" type="integer" />
  </outputs>
</directive>
\`\`\`

${body}
`;

async function compileOne(name: string, text: string) {
  const { dir, result } = compileToDir([source(`t/${name}`, text)]);
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return importDirective(dir, `t/${name}`);
}

describe("render", () => {
  test("every input form, Python str() values, and the seed 004 prompt", async () => {
    const inputs = `    <input name="name" type="string" required="true">N</input>
    <input name="title" type="string" required="false">T</input>
    <input name="greeting" type="string" required="false" default="Hello">G</input>
    <input name="flag" type="boolean" required="false">F</input>
    <input name="items" type="array" required="false">I</input>
    <input name="n" type="number" required="false">N</input>
`;
    const body = "Say {input:greeting} {input:title?} {input:name}{input:punct|!}\nflag={input:flag} items={input:items:none} n={input:n}";
    const text = directive("forms", inputs, body).replace("{input:punct|!}", "{input:title|!}");
    const mod = await compileOne("forms", text);
    const out = mod.render({ name: "Ada", flag: true, items: ["a", "it's"], n: new PyFloat(1) });
    expect(out.body).toBe("Say Hello  Ada!\nflag=True items=['a', \"it's\"] n=1.0");
    expect(out.prompt).toBe(
      [
        '<directive name="forms">\n<description>A test directive.</description>',
        "<permissions>\n      <execute><tool>rye.file-system.*</tool></execute>\n    </permissions>",
        out.body,
        "When you have completed all steps, return structured results:\n" +
          '`rye_execute(item_type="tool", item_id="rye/agent/threads/directive_return", parameters={"result": "<What came out (string) [required]>", "count": "<integer>"})`',
        "</directive>",
      ].join("\n"),
    );
    // A missing optional input without a fallback stays literal, as in the original.
    expect(mod.render({ name: "x" }).body).toContain("n={input:n}");
    expect(() => mod.render({} as never)).toThrow(/Missing required inputs: name/);
  });

  test("hostile text in a directive cannot break or inject into the module", async () => {
    const nasty = "` ${process.exit(1)} */ \" ' \\ </script> \u2028 \u2029 \ud800 \u0000 `rye_execute()`";
    const text = directive("nasty", `    <input name="x" type="string" required="true">X</input>\n`, `${nasty} {input:x}`, "", "D &amp; */ `x`");
    const mod = await compileOne("nasty", text);
    const out = mod.render({ x: "${inputs.x}" });
    // raw is the file text; `${inputs.x}` inside a value is expanded by the original's second pass.
    expect(out.raw).toBe(text.replace("{input:x}", "${inputs.x}"));
    expect(out.body).toBe(`${nasty} \${inputs.x}`);
    expect(mod.metadata.description).toBe("D & */ `x`");
  });

  test("{env:VAR} runs before input refs, with a default", async () => {
    const text = directive("env", `    <input name="x" type="string" required="true">X</input>\n`, "By {env:AUTHOR:nobody} for {input:x}; {env:INJ}");
    const mod = await compileOne("env", text);
    expect(mod.render({ x: "X" }, { env: { INJ: "{input:x}" } }).body).toBe("By nobody for X; X");
    expect(mod.render({ x: "X" }, { env: { AUTHOR: "ann" } }).body).toBe("By ann for X; {env:INJ}");
  });

  test("validate returns the original payloads", async () => {
    const text = directive("val", `    <input name="a" type="integer" required="true">A</input>\n    <input name="b" type="string" required="false" default="d">B</input>\n`, "{input:a} {input:b}");
    const mod = await compileOne("val", text);
    expect(mod.validate({ a: 1 })).toEqual({
      status: "success",
      inputs: { a: 1, b: "d" },
      declared_inputs: [
        { name: "a", type: "integer", required: true, description: "A" },
        { name: "b", type: "string", required: false, default: "d", description: "B" },
      ],
    });
    expect(mod.validate({})).toMatchObject({ status: "error", error: "Missing required inputs: a", item_id: "t/val" });
    expect(mod.validate({ a: 1, zz: 2 })).toMatchObject({ status: "error", error: "Unknown parameters: zz. Valid inputs: a, b" });
    expect(mod.validate({ a: "one" })).toMatchObject({ status: "error", item_id: "t/val" });
    expect(mod.validate("nope")).toMatchObject({ status: "error" });
  });
});
