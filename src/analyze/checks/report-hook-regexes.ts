import { reportRefusedRegexes } from "../hook-regexes.js";
import type { CheckContext } from "./context.js";

/** RYE3009 for a `<condition op="regex">` in `<hooks>` whose pattern the linear-time matcher refuses. */
export function reportHookRegexes({ data, parsed, bag }: CheckContext): void {
  (data.hooks ?? []).forEach((hook, i) => {
    const loc = parsed.locs.hooks[i];
    if (!loc) return;
    for (const x of reportRefusedRegexes(hook.condition, parsed.file.text, loc.start.offset, loc.end.offset, parsed.source, parsed.lines)) bag.add(x);
  });
}
