import type { XmlElement } from "./ast.js";
import type { DirectiveData, DirectiveLocations } from "./directive-data.js";
import { coerceLimit, coerceRuntime, coerceCondition } from "./coerce.js";
import { pyStrip } from "../runtime/pystr.js";

/** Capability tags of both eras (decisions.md #8); anything else in `<permissions>` is an error. */
export const PERMISSION_PRIMARIES = ["execute", "search", "load", "fetch", "sign"] as const;
const PRIMARY = new Set<string>(PERMISSION_PRIMARIES);
const PERMISSION_TAGS = new Set<string>([...PERMISSION_PRIMARIES, "acknowledge"]);
const CONTEXT_POSITIONS = ["system", "before", "after", "suppress"] as const;

const strip = (s: string | null) => pyStrip(s ?? "");

/** The message the original raises for an unknown permission tag, listing our accepted set. */
export function unknownPermissionMessage(tag: string): string {
  return `Unknown tag <${tag}> inside <permissions>. Valid tags: ${[...PERMISSION_TAGS].sort().join(", ")}`;
}

/** Fills `result` from the metadata Xml tree as the original `_extract_from_xml` does; records locations. */
export function extractMetadata(root: XmlElement, result: DirectiveData, locs: DirectiveLocations): void {
  const rootDesc = find(root, "description");
  if (rootDesc?.text) {
    result.description = strip(rootDesc.text);
    noteUninterpolated(locs, "description", rootDesc);
  }
  const metadata = find(root, "metadata");
  if (metadata) {
    for (const child of metadata.children) readMetadataChild(child, result, locs);
    if (!("description" in result)) {
      const desc = find(metadata, "description");
      if (desc?.text) result.description = strip(desc.text);
    }
  }
  readInputs(root, result, locs);
  readActions(root, metadata, result);
  readOutputs(root, result, locs);
}

function readMetadataChild(child: XmlElement, result: DirectiveData, locs: DirectiveLocations): void {
  switch (child.tag) {
    case "model":
    case "model_class":
      result.model = { ...child.attrib };
      return;
    case "permissions":
      readPermissions(child, result, locs);
      return;
    case "limits":
      result.limits = mapAttrib(child.attrib, coerceLimit);
      return;
    case "runtime":
      result.runtime = mapAttrib(child.attrib, coerceRuntime);
      return;
    case "hooks":
      result.hooks = child.children.map(readHook);
      locs.hooks = child.children.map((h) => h.loc);
      return;
    case "context":
      result.context = readContext(child);
      for (const c of child.children) {
        const value = strip(c.text);
        if (value && CONTEXT_POSITIONS.some((p) => p === c.tag)) locs.context.push({ position: c.tag, id: value, loc: c.textLoc ?? c.loc });
      }
      return;
    case "category":
      result.category = strip(child.text);
      return;
    default:
      if (child.text) {
        result[child.tag] = strip(child.text);
        if (child.tag === "extends") locs.extends = child.textLoc ?? child.loc;
        noteUninterpolated(locs, child.tag, child);
      }
  }
}

function readPermissions(el: XmlElement, result: DirectiveData, locs: DirectiveLocations): void {
  locs.permissions = el.loc;
  const permissions: { tag: "cap"; content: string }[] = [];
  if (strip(el.text) === "*" && el.children.length === 0) {
    permissions.push({ tag: "cap", content: "rye.*" });
  } else {
    for (const perm of el.children) {
      if (!PERMISSION_TAGS.has(perm.tag)) {
        locs.unknownPermissionTags.push({ tag: perm.tag, loc: perm.loc });
        continue;
      }
      if (!PRIMARY.has(perm.tag)) continue;
      const inner = strip(perm.text);
      if (inner === "*" && perm.children.length === 0) permissions.push({ tag: "cap", content: `rye.${perm.tag}.*` });
      else if (perm.children.length > 0) {
        for (const item of perm.children) {
          const t = strip(item.text);
          if (t) permissions.push({ tag: "cap", content: `rye.${perm.tag}.${item.tag}.${t}` });
        }
      } else if (inner) permissions.push({ tag: "cap", content: `rye.${perm.tag}.${inner}` });
    }
  }
  const acks = el.children
    .filter((c) => c.tag === "acknowledge" && c.attrib.risk)
    .map((c) => ({ risk: c.attrib.risk!, reason: strip(c.text) }));
  if (acks.length > 0) result.acknowledged_risks = acks;
  result.permissions = permissions;
}

function readHook(hook: XmlElement): Record<string, unknown> {
  const data: Record<string, unknown> = { ...hook.attrib };
  if (hook.text && strip(hook.text)) data.content = strip(hook.text);
  for (const c of hook.children) {
    if (c.tag === "action") {
      const subs = c.children.filter((s) => PRIMARY.has(s.tag)).map((s) => ({ ...s.attrib, primary: s.tag, ...paramsOf(s) }));
      if (subs.length > 0) data.actions = subs;
      else data.action = { ...c.attrib, ...paramsOf(c) };
    } else if (c.tag === "condition") {
      const cond: Record<string, unknown> = { ...c.attrib };
      if ("value" in cond) cond.value = coerceCondition(c.attrib.value!);
      data.condition = cond;
    } else if (c.tag === "inputs") {
      const inputs: Record<string, string> = {};
      for (const inp of c.children) if (inp.text) inputs[inp.attrib.name ?? inp.tag] = strip(inp.text);
      data.inputs = inputs;
    } else if (c.text) data[c.tag] = strip(c.text);
  }
  return data;
}

function paramsOf(el: XmlElement): { params?: Record<string, string> } {
  const params: Record<string, string> = {};
  for (const p of el.children) if (p.tag === "param" && p.text) params[p.attrib.name ?? p.tag] = strip(p.text);
  return Object.keys(params).length > 0 ? { params } : {};
}

function readContext(el: XmlElement): NonNullable<DirectiveData["context"]> {
  const context = { system: [] as string[], before: [] as string[], after: [] as string[], suppress: [] as string[] };
  for (const c of el.children) {
    const position = CONTEXT_POSITIONS.find((p) => p === c.tag);
    const value = strip(c.text);
    if (position && value) context[position].push(value);
  }
  return context;
}

function readInputs(root: XmlElement, result: DirectiveData, locs: DirectiveLocations): void {
  const el = find(root, "inputs");
  if (!el) return;
  const inputs = el.children.filter((c) => c.tag === "input");
  for (const inp of inputs) {
    locs.inputs.push({
      element: inp.loc,
      name: inp.attribLocs.name,
      type: inp.attribLocs.type,
      default: inp.attribLocs.default,
      text: inp.textLoc ?? undefined,
    });
    if (inp.text) noteUninterpolated(locs, "input description", inp);
  }
  const declared = inputs.map((inp) => ({
    name: inp.attrib.name ?? "",
    type: inp.attrib.type ?? "string",
    required: (inp.attrib.required ?? "false").toLowerCase() === "true",
    ...(inp.attrib.default !== undefined ? { default: inp.attrib.default } : {}),
    ...(inp.text ? { description: strip(inp.text) } : {}),
  }));
  if (declared.length > 0) result.inputs = declared;
}

function readOutputs(root: XmlElement, result: DirectiveData, locs: DirectiveLocations): void {
  const el = find(root, "outputs");
  if (!el) return;
  const outputs = el.children
    .filter((c) => c.tag === "output")
    .map((o) => {
      locs.outputs.push(o.attribLocs.name ?? o.loc);
      if (o.text) noteUninterpolated(locs, "output description", o);
      return {
        name: o.attrib.name ?? "",
        type: o.attrib.type ?? "string",
        required: (o.attrib.required ?? "false").toLowerCase() === "true",
        ...(o.text ? { description: strip(o.text) } : {}),
      };
    });
  if (outputs.length > 0) result.outputs = outputs;
}

/** XML actions: primary-action elements anywhere in the fence except inside `<metadata>`. */
function readActions(root: XmlElement, metadata: XmlElement | undefined, result: DirectiveData): void {
  const actions: DirectiveData["actions"] = [];
  const visit = (el: XmlElement) => {
    if (el === metadata) return;
    if (PRIMARY.has(el.tag)) {
      const params: Record<string, string> = {};
      for (const p of el.children.filter((c) => c.tag === "param")) {
        const name = p.attrib.name ?? "";
        let value = p.attrib.value ?? "";
        if (!value && p.text) value = strip(p.text);
        if (name) params[name] = value;
      }
      actions.push({ primary: el.tag, ...el.attrib, ...(Object.keys(params).length > 0 ? { params } : {}) });
    }
    el.children.forEach(visit);
  };
  visit(root);
  if (actions.length > 0) result.actions = actions;
}

function find(el: XmlElement, tag: string): XmlElement | undefined {
  return el.children.find((c) => c.tag === tag);
}

function mapAttrib<T>(attrib: Record<string, string>, f: (v: string) => T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(attrib)) out[k] = f(v);
  return out;
}

function noteUninterpolated(locs: DirectiveLocations, field: string, el: XmlElement): void {
  if (el.text && el.textLoc) locs.uninterpolated.push({ field, text: el.text, loc: el.textLoc });
}
