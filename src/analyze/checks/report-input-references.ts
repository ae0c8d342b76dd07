import * as d from "../../diagnostics/codes.js";
import { didYouMean } from "../../runtime/did-you-mean.js";
import type { CheckContext } from "./context.js";
import { nearMissInputNames } from "./report-misspelt-kinds.js";
import { hiddenInputNames } from "./report-unread-markup.js";
import { unmatchableNames } from "./report-unmatchable-placeholders.js";

/** Undeclared and unused inputs, fallbacks that can never apply, and extension syntax in use. */
export function reportInputReferences({ data, parsed, refs, bag }: CheckContext): void {
  // `<inputs>` inside `<metadata>` leaves a text field here (RYE2015 reports it).
  const inputs = Array.isArray(data.inputs) ? data.inputs : [];
  const declared = new Map(inputs.map((input) => [input.name, input]));
  const names = [...declared.keys()];
  const used = new Set<string>([...nearMissInputNames(parsed), ...unmatchableNames(parsed.file.text, refs)]);
  // Inputs declared where the original never reads them are reported once, at that markup (RYE2015).
  const hidden = hiddenInputNames(parsed);
  for (const ref of refs) {
    used.add(ref.name);
    const input = declared.get(ref.name);
    if (ref.type === "dollar_input") {
      // Unknown parameters are rejected when inputs are declared, so this can never be substituted.
      bag.add(input ? d.extensionPlaceholder(ref.loc, ref.raw) : d.undeclaredDollarInput(ref.loc, ref.raw));
      continue;
    }
    if (!input) {
      if (hidden.has(ref.name)) continue;
      const meant = didYouMean(ref.name, names);
      bag.add(d.undeclaredInput(ref.loc, ref.name, meant, ref.type === "input_ref" && ref.modifier !== null));
      // The misspelt reference is the use of the input it was meant for: one mistake, one diagnostic.
      if (meant !== undefined) used.add(meant);
      continue;
    }
    if (ref.type === "input_ref" && ref.modifier !== null && input.required && input.default === undefined) {
      bag.add(d.fallbackOnRequired(ref.loc, ref.name, ref.raw));
    }
  }
  inputs.forEach((input, i) => {
    if (input.name && !used.has(input.name)) bag.add(d.unusedInput(parsed.locs.inputs[i]!.name ?? parsed.locs.inputs[i]!.element, input.name));
  });
}
