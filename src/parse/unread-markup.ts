import type { LineIndex } from "../diagnostics/diagnostic.js";
import type { XmlElement } from "./ast.js";
import type { UnreadMarkup } from "./directive-data.js";
import { PERMISSION_PRIMARIES } from "./extract-metadata.js";
import { didYouMean } from "../runtime/did-you-mean.js";

// What the original's parser reads (rye-reference.md §1.4–1.5). It ignores everything else without
// a word, so markup outside these lists is a mistake the author cannot see at run time.
const ROOT_ATTRS = ["name", "version", "extends"];
const ROOT_CHILDREN = ["metadata", "inputs", "outputs", "description"];
const METADATA_CHILDREN = ["description", "category", "author", "model", "model_class", "permissions", "limits", "runtime", "hooks", "context", "extends", "continuation_directive"];
const CONTEXT_CHILDREN = ["system", "before", "after", "suppress"];
const INPUT_ATTRS = ["name", "type", "required", "default"];
const OUTPUT_ATTRS = ["name", "type", "required"];
const PRIMARY = new Set<string>(PERMISSION_PRIMARIES);

/** Unknown, misspelt or misplaced elements and attributes of a directive's metadata tree, and `required` values read as false. */
export function findUnreadMarkup(root: XmlElement, source: string, lines: LineIndex): UnreadMarkup[] {
  const out: UnreadMarkup[] = [];
  const tagLoc = (el: XmlElement) => lines.location(source, el.loc.start.offset + 1, el.loc.start.offset + 1 + el.tag.length);
  const element = (el: XmlElement, why: string, hidden: XmlElement[] = [], misread = false) =>
    out.push({ kind: "unread", loc: tagLoc(el), what: `<${el.tag}>`, why, hidden: hidden.map((h) => h.attrib.name ?? "").filter((n) => n !== ""), ...(misread ? { misread } : {}) });
  const attributes = (el: XmlElement, known: string[]) => {
    for (const name of Object.keys(el.attrib)) {
      if (known.includes(name) || name.startsWith("{")) continue;
      const near = didYouMean(name, known);
      out.push({ kind: "unread", loc: el.attribLocs[name]!, what: `Attribute ${name}="…" of <${el.tag}>`, why: near ? `did you mean ${near}="…"?` : `<${el.tag}> has only ${known.join(", ")}.`, hidden: [] });
    }
    const required = el.attrib.required;
    if (required !== undefined && !/^(true|false)$/i.test(required)) out.push({ kind: "false", loc: el.attribLocs.required!, attribute: "required", value: required });
  };
  attributes(root, ROOT_ATTRS);
  for (const child of root.children) {
    if (ROOT_CHILDREN.includes(child.tag) || PRIMARY.has(child.tag) || hasAction(child)) continue;
    const near = nearTag(child.tag, ROOT_CHILDREN);
    const hidden = near !== "inputs" ? [] : child.tag === "input" ? [child] : inputsOf(child);
    if (METADATA_CHILDREN.includes(child.tag)) element(child, `it belongs inside <metadata>.`);
    else if (child.tag === "input") element(child, "an <input> is read only inside <inputs>: wrap the inputs in <inputs>…</inputs>.", [child]);
    else element(child, near ? `did you mean <${near}>?` : `<directive> holds only ${ROOT_CHILDREN.map((t) => `<${t}>`).join(", ")}.`, hidden);
  }
  for (const child of root.children.find((c) => c.tag === "metadata")?.children ?? []) {
    if (child.tag === "inputs" || child.tag === "outputs") {
      element(child, `it belongs directly under <directive>; inside <metadata> it is read as an empty text field. Move it out of <metadata>.`, child.tag === "inputs" ? inputsOf(child) : [], true);
    }
    else if (!METADATA_CHILDREN.includes(child.tag)) {
      // Any other child with text is kept under its own name (`<author>`), so only a near miss is reported.
      const near = nearTag(child.tag, METADATA_CHILDREN);
      if (near) element(child, `did you mean <${near}>?`);
    } else if (child.tag === "permissions") {
      for (const p of child.children) if (PRIMARY.has(p.tag)) attributeOnlyGrant(p, out, lines, source);
    } else if (child.tag === "context") {
      for (const c of child.children) if (!CONTEXT_CHILDREN.includes(c.tag)) element(c, `<context> holds only ${CONTEXT_CHILDREN.map((t) => `<${t}>`).join(", ")}.${hint(c.tag, CONTEXT_CHILDREN)}`);
    }
  }
  for (const inputs of root.children.filter((c) => c.tag === "inputs")) {
    for (const c of inputs.children) {
      if (c.tag === "input") attributes(c, INPUT_ATTRS);
      else element(c, `<inputs> holds only <input> elements.${hint(c.tag, ["input"])}`, [c]);
    }
  }
  for (const outputs of root.children.filter((c) => c.tag === "outputs")) {
    for (const c of outputs.children) {
      if (c.tag === "output") attributes(c, OUTPUT_ATTRS);
      // `<success>` and `<failure>` are common and harmless; only a near miss of `<output>` is a mistake.
      else if (didYouMean(c.tag, ["output"], 2)) element(c, `<outputs> reads only <output> elements. Did you mean <output>?`);
    }
  }
  return out;
}

/**
 * `<execute tool="x"/>`: permissions are read from text only (`<execute><tool>x</tool></execute>`), so
 * this form grants nothing, and the calls it was meant for are then not permitted.
 */
function attributeOnlyGrant(el: XmlElement, out: UnreadMarkup[], lines: LineIndex, source: string): void {
  const names = Object.keys(el.attrib);
  if (names.length === 0 || el.children.length > 0 || (el.text ?? "").trim() !== "") return;
  const [kind, value] = [names[0]!, el.attrib[names[0]!]!];
  const loc = el.attribLocs[kind] ?? lines.location(source, el.loc.start.offset, el.loc.start.offset);
  out.push({ kind: "unread", loc, what: `Attribute ${kind}="…" of <${el.tag}>`, why: `a permission is read from text only, so this grants nothing. Write <${el.tag}><${kind}>${value}</${kind}></${el.tag}>.`, hidden: [] });
}

/** The known tag `tag` misspells; a plural is also found from a misspelt singular (`<inptu>` → `<inputs>`). */
function nearTag(tag: string, known: string[]): string | undefined {
  const near = didYouMean(tag, known);
  if (near) return near;
  const singular = didYouMean(tag, known.map((k) => k.replace(/s$/, "")));
  return singular && known.find((k) => k.replace(/s$/, "") === singular);
}

const hint = (tag: string, known: string[]) => {
  const near = nearTag(tag, known);
  return near ? ` Did you mean <${near}>?` : "";
};

const inputsOf = (el: XmlElement) => el.children.filter((c) => c.attrib.name !== undefined);

function hasAction(el: XmlElement): boolean {
  return el.children.some((c) => PRIMARY.has(c.tag) || hasAction(c));
}
