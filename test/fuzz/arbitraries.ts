// Random directives for the property tests: a model (inputs, body pieces, values) rendered to
// markdown text, so the oracle knows exactly what was written; and near-valid variants made by
// mutating such text with the characters that break parsers.
import fc from "fast-check";

export interface InputModel {
  name: string;
  type: "string" | "integer" | "boolean";
  required: boolean;
  /** The parsed value of the `default` attribute (what the original sees), if any. */
  default?: string;
  description: string;
}

export interface DirectiveCase {
  inputs: InputModel[];
  description: string;
  /** Everything after the closing fence line, as written. */
  body: string;
  lineEnding: "\n" | "\r\n" | "\r";
  bom: boolean;
  given: Record<string, unknown>;
  env: Record<string, string>;
}

/** Input names: reserved words, Object.prototype members, non-ASCII, digits first. */
const NAMES = ["x", "name", "class", "constructor", "__proto__", "toString", "hasOwnProperty", "then", "default", "import", "ünïcode", "日本", "a1", "_", "1st", "valueOf"];
const ENV_NAMES = ["HOME", "X", "RYE_FUZZ", "ünï", "A_1"];

/** Characters that matter to some layer: braces, `$`, `:`, `|`, quotes, backticks, comment ends, separators, astral. */
const SPICY = ["{", "}", "$", ":", "|", "?", "`", "``", "*/", "/*", "${", "</script>", "\\", '"', "'", "\u2028", "\u2029", "é", "中", "😀", "\t", "\n", " ", "<", ">", "&", "%", "\u00a0", "\u0085", "\ufeff", "#"];

const spicyText = (max: number) =>
  fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SPICY) }, { weight: 2, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: fc.constantFrom("a", "b", "word", "the") }), { maxLength: max }).map((a) => a.join(""));

/** Text for a default or fallback: no `}` (it would end the placeholder). */
const fallbackText = spicyText(4).map((s) => s.replace(/}/g, ""));

function placeholder(names: readonly string[]): fc.Arbitrary<string> {
  const name = names.length > 0 ? fc.constantFrom(...names) : fc.constant("x");
  const env = fc.constantFrom(...ENV_NAMES);
  return fc.oneof(
    name.map((n) => `{input:${n}}`),
    name.map((n) => `{input:${n}?}`),
    fc.tuple(name, fallbackText).map(([n, d]) => `{input:${n}:${d}}`),
    fc.tuple(name, fallbackText).map(([n, d]) => `{input:${n}|${d}}`),
    name.map((n) => `\${inputs.${n}}`),
    env.map((v) => `{env:${v}}`),
    fc.tuple(env, fallbackText).map(([v, d]) => `{env:${v}:${d}}`),
    fc.constantFrom("${HOME}", "${VAR:-x}", "${state.path}", "{param}", "{{input:x}}", "{input:{input:x}}", "{input: x}", "{input:}", "{ {", "}}", "${inputs.}", "{env:}"),
  );
}

function body(names: readonly string[]): fc.Arbitrary<string> {
  const piece = fc.oneof({ weight: 3, arbitrary: spicyText(8) }, { weight: 3, arbitrary: placeholder(names) }, { weight: 1, arbitrary: fc.constantFrom("\n", "\n\n", "```\n", "````\n", "<step>", "</step>") });
  const normal = fc.array(piece, { maxLength: 30 }).map((a) => a.join(""));
  // Now and then a huge body (hundreds of kilobytes) built from a few repeated pieces.
  const huge = fc.tuple(fc.array(piece, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1_000, max: 5_000 })).map(([a, n]) => a.join("").repeat(n).slice(0, 100_000));
  return fc.oneof({ weight: 150, arbitrary: normal }, { weight: 1, arbitrary: huge });
}

const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const xmlAttr = (s: string) => xmlText(s).replace(/"/g, "&quot;");
/** Characters XML 1.0 does not allow at all, even escaped: the generator of valid cases avoids them. */
const notXml = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udfff]/g, "");

const inputModel = fc.record({
  name: fc.constantFrom(...NAMES).filter((n) => n !== "1st"),
  type: fc.constantFrom("string", "string", "integer", "boolean") as fc.Arbitrary<InputModel["type"]>,
  required: fc.boolean(),
  default: fc.option(fallbackText.map((s) => notXml(s).replace(/[\t\n\r]/g, " ")), { nil: undefined }),
  description: spicyText(4).map(notXml),
});

/** A directive the compiler should accept (warnings allowed), with values for its inputs. */
export const directiveCase: fc.Arbitrary<DirectiveCase> = fc
  .uniqueArray(inputModel, { selector: (i) => i.name, maxLength: 5 })
  .map((inputs) => inputs.map((i) => (i.type === "string" && !i.required ? i : { ...i, default: undefined })))
  .chain((inputs) => {
    const names = inputs.map((i) => i.name);
    const values = inputs.map((i) =>
      fc.tuple(
        fc.constant(i),
        i.required ? fc.constant(true) : fc.boolean(),
        i.type === "integer" ? fc.integer({ min: -1e6, max: 1e6 }) : i.type === "boolean" ? fc.boolean() : fc.oneof(spicyText(6), placeholder(names)),
      ),
    );
    return fc.record({
      inputs: fc.constant(inputs),
      description: spicyText(6).map(notXml),
      body: body(names),
      lineEnding: fc.constantFrom("\n", "\n", "\n", "\r\n", "\r") as fc.Arbitrary<DirectiveCase["lineEnding"]>,
      bom: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      given: fc.tuple(...values).map((vs) => {
        const given: Record<string, unknown> = {};
        for (const [i, present, v] of vs) if (present) Object.defineProperty(given, i.name, { value: v, enumerable: true, configurable: true, writable: true });
        return given;
      }),
      env: fc.dictionary(fc.constantFrom(...ENV_NAMES), spicyText(3)),
    });
  });

/** The markdown text of a case, and the part after the closing fence (what the original calls the body). */
export function directiveText(c: DirectiveCase, name: string): { text: string; afterFence: string } {
  const inputs = c.inputs
    .map(
      (i) =>
        `    <input name="${xmlAttr(i.name)}" type="${i.type}" required="${i.required}"${i.default !== undefined ? ` default="${xmlAttr(i.default)}"` : ""}>${xmlText(i.description)}</input>`,
    )
    .join("\n");
  const head = `${c.bom ? "\ufeff" : ""}# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0">
  <metadata>
    <description>${xmlText(c.description)}</description>
  </metadata>
  <inputs>
${inputs}
  </inputs>
</directive>
\`\`\`
`;
  const eol = (s: string) => (c.lineEnding === "\n" ? s : s.replace(/\n/g, c.lineEnding));
  return { text: eol(head) + eol(c.body), afterFence: eol(c.body) };
}

/** What breaks parsers: fences, markup, line endings, NUL, BOM, deep nesting, lone surrogates. */
const NASTY = ["```", "```xml\n", "````\n", "\n```\n", "<", "&", "]]>", "<!--", "-->", "<![CDATA[", '"', "'", "\r", "\r\n", "\0", "\ufeff", "\ud800", "{input:", "${", "}", "<a>".repeat(300), "{".repeat(500), "</directive>", "<inputs>", "<input name=\"x\"/>", "<permissions><bogus/></permissions>", "extends=\"x\"", "\u2028"];

/** Edits of valid text: insertions of nasty strings, deletions, truncation, line duplication. */
export const nearValidText: fc.Arbitrary<string> = fc
  .tuple(
    directiveCase.map((c) => directiveText(c, "near").text),
    fc.array(
      fc.oneof(
        fc.tuple(fc.constant("insert" as const), fc.nat(), fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 4 }))),
        fc.tuple(fc.constant("delete" as const), fc.nat(), fc.integer({ min: 1, max: 20 })),
        fc.tuple(fc.constant("truncate" as const), fc.nat(), fc.constant(0)),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([text, edits]) => {
    let t = text;
    for (const [op, at, arg] of edits) {
      const i = t.length === 0 ? 0 : at % (t.length + 1);
      if (op === "insert") t = t.slice(0, i) + (arg as string) + t.slice(i);
      else if (op === "delete") t = t.slice(0, i) + t.slice(i + (arg as number));
      else t = t.slice(0, i);
    }
    return t;
  });
