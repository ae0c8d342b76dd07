// The compiled render() concatenates precomputed pieces and only runs the original's second pass
// (`${inputs.x}`) and strip-and-join prompt when an inserted value could matter. These tests pit it
// against the run-time interpreter (parse, validate, regex passes, _build_prompt) on values built
// to trip each shortcut: `$`, `${inputs.other}`, `{input:other}`, `{env:…}` text, edge whitespace.
import { describe, expect, test } from "vitest";
import { parseDirective } from "../../src/parse/parse-directive.js";
import { interpolateParsed } from "../../src/runtime/interpolate.js";
import { buildPrompt } from "../../src/runtime/directive.js";
import { promptParts } from "../../src/emit/prompt-parts.js";
import { compileToDir, importDirective, source } from "../helpers/compile.js";

const directive = (name: string, body: string, permissions = "<execute><tool>rye.x</tool></execute>") => `<!-- rye:unsigned -->
# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0">
  <metadata>
    <description>Fallback case.</description>
    <category>t</category>
    <permissions>${permissions}</permissions>
  </metadata>
  <inputs>
    <input name="a" type="string" required="true">A</input>
    <input name="b" type="string" required="false">B</input>
    <input name="c" type="string" required="false" default="c-default">C</input>
  </inputs>
  <outputs>
    <output name="result">R</output>
  </outputs>
</directive>
\`\`\`

${body}
`;

/** What the original does on every call, from the .md text. */
function reference(text: string, path: string, inputs: Record<string, unknown>, env: Record<string, string>) {
  const data = parseDirective(text, path).data!;
  const withDefaults: Record<string, unknown> = { ...inputs };
  for (const i of data.inputs ?? []) if (i.default !== undefined && withDefaults[i.name] === undefined) withDefaults[i.name] = i.default;
  const r = interpolateParsed(data, withDefaults, env);
  return { body: r.body, content: r.content, raw: r.raw, prompt: buildPrompt(promptParts(r, false), r.content ?? "", r.body ?? "") };
}

const BODIES: Record<string, string> = {
  plain: "<process>\n  Do {input:a} then {input:b?} and {input:c}.\n</process>",
  // A static `$` right before a ref: a value without any `$` can still complete `${inputs.x}`.
  dollarBefore: "Cost: ${input:a} and $\\{input:b|none}; ${inputs.{input:c}",
  staticDollar: "Already ${inputs.b} here, {input:a}.",
  staticDollars: "$${inputs.b} and ${inputs.c}{input:a}${inputs.a} ${inputs.zz}\n{input:b?}",
  prefixes: "${inp{input:a}  ${inputs.{input:b?}} $$ {input:c}",
  // A value that is itself a start of the rest of `${inputs.`: the parts after it decide.
  spanning: "${{input:a}uts.{input:b?}} and $$ {input:c|x}$",
  edgeRefs: "{input:a}\n middle \n{input:b|tail}",
  spaces: "  \n\t{input:b?}  ",
  env: "By {env:WHO:nobody} for {input:a}; {env:INJ}",
  // Unset, a fallback completes a ref with the static text around it; `{env:toString}` must not read Object.prototype.
  envForms: "  {env:INJ:{input:}a} {input{env:WHO::b?}} ${inputs.{env:NONE:a}} {env:toString}\n",
};

const VALUES = [
  "plain",
  "${inputs.b}",
  "${inputs.c}",
  "${inputs.nope}",
  "{input:b}",
  "{input:c:x}",
  "{env:WHO}",
  "$",
  "{inputs.b}",
  "uts.b}",
  "b}",
  "  padded\n",
  "\u00a0nbsp\u00a0",
  "",
  "${inputs.a} {input:a} ${inputs.b}",
  "inp",
  "{inp",
];

describe("compiled render matches the interpreter where inserted values could trip a shortcut", () => {
  for (const [name, body] of Object.entries(BODIES)) {
    test(name, async () => {
      const text = directive(name, body);
      const path = `t/${name}.md`;
      const { dir, result } = compileToDir([source(`t/${name}`, text)]);
      expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const mod = await importDirective(dir, `t/${name}`);
      // Every pair of tricky values for a and b, with and without c, and env values holding refs.
      for (const a of VALUES) {
        for (const b of [undefined, ...VALUES]) {
          for (const c of [undefined, "${inputs.a}", "{input:a}"]) {
            const inputs: Record<string, unknown> = { a };
            if (b !== undefined) inputs.b = b;
            if (c !== undefined) inputs.c = c;
            // Env values holding refs, one variable set, a variable set to undefined, and none set.
            const envs: Record<string, string>[] = [{ INJ: "{input:b} ${inputs.a}", WHO: b ?? "w" }, { WHO: "{input:a}" }, { INJ: undefined as never }, {}];
            for (const env of envs) {
              const got = mod.render(inputs as never, { env });
              const want = reference(text, path, inputs, env);
              const label = `${name} a=${JSON.stringify(a)} b=${JSON.stringify(b)} c=${JSON.stringify(c)} env=${JSON.stringify(env)}`;
              expect({ body: got.body, content: got.content, raw: got.raw, prompt: got.prompt }, label).toEqual(want);
            }
          }
        }
      }
    });
  }

  test("a value's own `{input:x}` text stays literal, even when the second pass runs", async () => {
    const text = directive("literal", "{input:a} / {input:b?}");
    const { dir } = compileToDir([source("t/literal", text)]);
    const mod = await importDirective(dir, "t/literal");
    // seed: the `${inputs.}` pass substitutes in values; `{input:}` refs are resolved only once, in the source.
    expect(mod.render({ a: "{input:b} ${inputs.b}", b: "B" }).body).toBe("{input:b} B / B");
    expect(mod.render({ a: "{input:b}", b: "B" }).body).toBe("{input:b} / B");
  });
});
