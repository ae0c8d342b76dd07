import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { maskOpaque } from "../../src/parse/mask-opaque.js";

// The original masks each section found by `<tag[^>]*>([\s\S]*?)</tag>` with `xml.replace(section,
// placeholder)`, one section at a time (rye-reference.md §1.4). maskOpaque finds and replaces them
// in one pass; this is the original's procedure written out plainly, with the log of every single
// replacement that maps offsets back, which maskOpaque must agree with on every text and offset.
function reference(xml: string) {
  const edits: { start: number; oldLength: number; newLength: number }[] = [];
  const templates: Record<string, string> = {};
  let masked = xml;
  let counter = 0;
  for (const tag of ["template", "example", "raw"]) {
    if (!masked.includes(`<${tag}`)) continue;
    for (const match of [...masked.matchAll(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, "g"))]) {
      const placeholder = `__opaque_${tag}_${counter++}__`;
      templates[placeholder] = match[1]!;
      const replacement = `<${tag} data-masked-id="${placeholder}"></${tag}>`;
      let out = "";
      let from = 0;
      for (let at = masked.indexOf(match[0]); at !== -1; at = masked.indexOf(match[0], from)) {
        edits.push({ start: out.length + (at - from), oldLength: match[0].length, newLength: replacement.length });
        out += masked.slice(from, at) + replacement;
        from = at + match[0].length;
      }
      masked = out + masked.slice(from);
    }
  }
  const unmask = (offset: number) => {
    for (let i = edits.length - 1; i >= 0; i--) {
      const e = edits[i]!;
      if (offset >= e.start + e.newLength) offset += e.oldLength - e.newLength;
      else if (offset > e.start) offset = e.start;
    }
    return offset;
  };
  return { masked, templates, unmask };
}

const PIECES = [
  "<template>", "<template a=\"1\">", "</template>", "<template", "<templates>", "<example>", "</example>", "<raw>", "</raw>",
  "<t>", "</t>", ">", "<", "/", "x", "yz", " ", "\n", "__opaque_template_0__", '<template data-masked-id="__opaque_template_0__"></template>', "__opaque_example_",
];
const xml = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((a) => a.join(""));

function agree(text: string) {
  const want = reference(text);
  const got = maskOpaque(text);
  expect(got.masked, text).toBe(want.masked);
  expect(got.templates, text).toEqual(want.templates);
  for (let o = 0; o <= got.masked.length; o++) expect(got.unmask(o), `${text} @${o}`).toBe(want.unmask(o));
}

describe("maskOpaque does what the original's replacements do", () => {
  test("on examples: repeated, nested, unclosed sections and placeholders written by hand", () => {
    for (const text of [
      "<directive><template>a</template><template>a</template><example><template>b</template></example></directive>",
      "<template><template>x</template></template><template>x</template>",
      '<template data-masked-id="__opaque_template_1__"></template><template>q</template><template>r</template>',
      "<template>never closed <template a='>'>x</template> <raw>r</raw><raw>r</raw> <example",
      "",
    ]) agree(text);
  });

  test("on generated texts", () => {
    fc.assert(fc.property(xml, agree), { numRuns: 1000 });
  });
});
