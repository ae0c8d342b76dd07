import { describe, expect, test } from "vitest";
import { promptParts } from "../../src/emit/prompt-parts.js";
import { parseDirective } from "../../src/parse/parse-directive.js";
import { buildPrompt } from "../../src/runtime/directive.js";
import { interpolateParsed } from "../../src/runtime/interpolate.js";
import { validateInputs } from "../../src/runtime/validate.js";
import { sharedRows, hasShared, vectorsFor } from "../helpers/shared.js";

// `_build_prompt` vectors (era current). Where they conflict with seed 004's code listing, the
// seed wins (decisions.md #1): the current era ends with a tool_use instruction and a BLOCKED
// paragraph; the seed ends with one `rye_execute(… directive_return …)` line. This test rewrites
// that closing block of each expected prompt into the seed's form, field for field, and keeps
// every other byte of the vector as is.
const C_RETURNS = /When you have completed all steps, call the `directive_return` tool via the tool_use API with these fields:\n\{([\s\S]*?)\n\}\n\nIf you are BLOCKED[^\n]*tool_use call\./;

function toSeedForm(expected: string): string {
  return expected.replace(C_RETURNS, (_all, fields: string) => {
    const pairs = fields.split("\n").map((l) => l.trim()).filter(Boolean);
    return `When you have completed all steps, return structured results:\n\`rye_execute(item_type="tool", item_id="rye/agent/threads/directive_return", parameters={${pairs.join(", ")}})\``;
  });
}

const prompt = (d: Record<string, unknown>) =>
  buildPrompt(promptParts(d as never, true), typeof d.content === "string" ? d.content : "", typeof d.body === "string" ? d.body : "");

describe.skipIf(!hasShared)("prompt vectors (era current, closing block per seed 004)", () => {
  test.each(sharedRows("prompt vectors", vectorsFor("prompt", "current").map((v) => [v.id, v] as const)))("%s", (_id, v) => {
    if (typeof v.input !== "string") {
      expect(prompt(v.input)).toBe(toSeedForm(v.expected));
      return;
    }
    // Markdown input: parse → validate (defaults) → interpolate → prompt, as a thread does.
    const data = parseDirective(v.input, "vector.md").data!;
    const checked = validateInputs(data.inputs ?? [], v.params ?? {});
    if (checked.status === "error") {
      expect(v.expected.error).toBe("validation");
      // "Valid inputs" are listed in declaration order (decisions.md #6), not Python set order.
      const [head, names] = (v.expected.message as string).split("Valid inputs: ");
      expect(checked.error.startsWith(head ?? "")).toBe(true);
      if (names) expect(checked.error.split("Valid inputs: ")[1]!.split(", ").sort()).toEqual(names.split(", ").sort());
      return;
    }
    const env = { ...(v.env ?? {}) } as Record<string, string>;
    expect(prompt(interpolateParsed(data as unknown as Record<string, unknown>, checked.inputs, env))).toBe(toSeedForm(v.expected));
  });
});

