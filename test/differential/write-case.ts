// The texts both sides read: a directive model as markdown, a parameter model as JSON text.
import type { DiffCase, DirectiveModel, JsonModel } from "./directive-model.js";

const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const xmlAttr = (s: string) => xmlText(s).replace(/"/g, "&quot;");

/** JSON text for a value, numbers written as Python's json module reads them back. */
export function jsonText(v: JsonModel): string {
  switch (v.k) {
    case "str":
      return JSON.stringify(v.v);
    case "int":
      return String(v.v);
    case "float":
      return floatText(v.v);
    case "bool":
      return v.v ? "true" : "false";
    case "null":
      return "null";
    case "list":
      return `[${v.v.map(jsonText).join(", ")}]`;
    case "dict":
      return `{${v.v.map(([k, x]) => `${JSON.stringify(k)}: ${jsonText(x)}`).join(", ")}}`;
  }
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (Object.is(x, -0)) return "-0.0";
  const s = String(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

export function paramsText(c: DiffCase): string {
  return `{${c.params.map(([k, v]) => `${JSON.stringify(k)}: ${jsonText(v)}`).join(", ")}}`;
}

/** The directive's markdown, named `name` (its item id's last part). */
export function directiveText(d: DirectiveModel, name: string): string {
  const inputs = d.inputs.map((i) => {
    const attrs = [`name="${xmlAttr(i.name)}"`];
    if (i.type !== undefined) attrs.push(`type="${i.type}"`);
    if (i.required !== undefined) attrs.push(`required="${i.required}"`);
    if (i.default !== undefined) attrs.push(`default="${xmlAttr(i.default)}"`);
    return i.description === undefined ? `    <input ${attrs.join(" ")} />` : `    <input ${attrs.join(" ")}>${xmlText(i.description)}</input>`;
  });
  const outputs = d.outputs.map((o) => `    <output name="${xmlAttr(o.name)}" type="${o.type}" required="${o.required}">${xmlText(o.description)}</output>`);
  const actions = d.actions.map((a) => {
    const params = a.params.map((p) => (p.asAttribute ? `<param name="${p.name}" value="${xmlAttr(p.value)}" />` : `<param name="${p.name}">${xmlText(p.value)}</param>`));
    return `      <execute item_type="tool" item_id="${a.itemId}">${params.join("")}</execute>`;
  });
  const lines = [
    `# ${name}`,
    "",
    "```xml",
    `<directive name="${name}" version="1.0.0">`,
    "  <metadata>",
    `    <description>${xmlText(d.description)}</description>`,
    ...(d.permissions ? ["    <permissions>", "      <execute><tool>rye.file-system.*</tool></execute>", "    </permissions>"] : []),
    "  </metadata>",
    ...(inputs.length > 0 ? ["  <inputs>", ...inputs, "  </inputs>"] : []),
    ...(outputs.length > 0 ? ["  <outputs>", ...outputs, "  </outputs>"] : []),
    ...(actions.length > 0 ? ["  <process>", "    <step name=\"run\">", ...actions, "    </step>", "  </process>"] : []),
    ...(d.template !== undefined ? [`  <template>${d.template}</template>`] : []),
    "</directive>",
    "```",
    "",
    d.body,
    "",
  ];
  const out = lines.join("\n");
  return d.crlf ? out.replace(/\n/g, "\r\n") : out;
}

/** Python's universal-newline read of a file's text, which is what the original parses. */
export function universalNewlines(s: string): string {
  return s.replace(/\r\n?/g, "\n");
}
