// A field with `{env:…}` refs is interpreted at run time, because an env value may form or break
// input refs. When none of its variables is set, though, the env pass only puts static text
// (the fallback, or the ref as written) in place: that text is known here and compiles like any
// other field, leaving the interpreter for calls where a variable is set.
import type { CompiledText } from "../analyze/analysis.js";
import type { TemplateNode } from "../parse/ast.js";
import { ENV_REF, INPUT_REF, resolveEnvRefs } from "../runtime/interpolate.js";

/** The env variables a field's `{env:…}` refs read, in first-use order. */
export function envNames(text: string): string[] {
  return [...new Set([...text.matchAll(ENV_REF)].map((m) => m[1]!))];
}

/**
 * The field as the original sees it after an env pass with no variable set, split at its input
 * refs by the same expression the interpreter's input pass uses.
 */
export function withoutEnv(t: CompiledText): CompiledText {
  const text = resolveEnvRefs(t.text, {});
  const segments: TemplateNode[] = [];
  let at = 0;
  for (const m of text.matchAll(INPUT_REF)) {
    if (m.index > at) segments.push(textNode(text.slice(at, m.index)));
    segments.push({ type: "input_ref", name: m[1]!, modifier: m[2] ?? null, raw: m[0] } as TemplateNode);
    at = m.index + m[0].length;
  }
  if (at < text.length || segments.length === 0) segments.push(textNode(text.slice(at)));
  return { text, segments, env: false };
}

function textNode(value: string): TemplateNode {
  return { type: "text", value } as TemplateNode;
}
