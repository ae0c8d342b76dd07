import * as d from "../../diagnostics/codes.js";
import type { CheckContext } from "./context.js";

/** RYE2015 and RYE2016, from what the parse found (the XML tree itself is not kept). */
export function reportUnreadMarkup({ parsed, data, refs, bag }: CheckContext): void {
  const declared = new Set((Array.isArray(data.inputs) ? data.inputs : []).map((i) => i.name));
  const used = new Set(refs.filter((r) => r.type === "input_ref" && !declared.has(r.name)).map((r) => r.name));
  for (const f of parsed.locs.unread ?? []) {
    if (f.kind === "false") bag.add(d.readAsFalse(f.loc, f.attribute, f.value));
    else bag.add(d.unreadMarkup(f.loc, f.what, f.why, [...new Set(f.hidden)].filter((n) => used.has(n)), f.misread));
  }
}

/** Names of inputs declared where the original never reads them: references to them are reported once, by RYE2015. */
export function hiddenInputNames(parsed: CheckContext["parsed"]): Set<string> {
  return new Set((parsed.locs.unread ?? []).flatMap((f) => (f.kind === "unread" ? f.hidden : [])));
}
