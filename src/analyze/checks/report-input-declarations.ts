import * as d from "../../diagnostics/codes.js";
import { pyFloat, pyInt } from "../../parse/coerce.js";
import { TS_TYPES } from "../analysis.js";
import type { CheckContext } from "./context.js";

const INPUT_NAME = /^[\p{L}\p{N}_]+$/u;

/** Duplicate, unnamed or unreferenceable inputs, unknown types, and defaults that do not fit their type. */
export function reportInputDeclarations({ data, parsed, bag }: CheckContext): void {
  const seen = new Set<string>();
  // `<inputs>` inside `<metadata>` leaves a text field here (RYE2015 reports it).
  (Array.isArray(data.inputs) ? data.inputs : []).forEach((input, i) => {
    const locs = parsed.locs.inputs[i]!;
    const nameLoc = locs.name ?? locs.element;
    if (!INPUT_NAME.test(input.name)) bag.add(d.invalidInputName(nameLoc, input.name));
    else if (seen.has(input.name)) bag.add(d.duplicateInput(nameLoc, input.name));
    seen.add(input.name);
    if (!(input.type in TS_TYPES)) bag.add(d.unknownInputType(locs.type ?? nameLoc, input.name, input.type));
    else if (input.default !== undefined && !fits(input.type, input.default)) {
      bag.add(d.defaultTypeMismatch(locs.default ?? nameLoc, input.name, input.type, input.default));
    }
  });
}

/** Whether an XML default (always a string) reads as a value of `type`. */
function fits(type: string, value: string): boolean {
  switch (type) {
    case "integer":
      return pyInt(value) !== undefined;
    case "number":
    case "float":
      return pyFloat(value) !== undefined;
    case "boolean":
      return /^(true|false)$/i.test(value);
    case "object":
    case "dict":
      return parsesAs(value, (v) => typeof v === "object" && v !== null && !Array.isArray(v));
    case "array":
    case "list":
      return parsesAs(value, Array.isArray);
    default:
      return true;
  }
}

function parsesAs(value: string, ok: (v: unknown) => boolean): boolean {
  try {
    return ok(JSON.parse(value));
  } catch {
    return false;
  }
}
