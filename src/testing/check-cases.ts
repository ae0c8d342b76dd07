// Test files checked against the items they test, as a build checks sources: a case that names an
// input the item does not declare, or leaves out a required one without expecting the refusal, is
// a located error before anything runs.
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { omittedTestInput, testedItemNotFound, uncheckableExpectation, undeclaredTestInput } from "../diagnostics/codes.js";
import { didYouMean, didYouMeanId } from "../runtime/did-you-mean.js";
import type { TestCase, TestFile } from "./test-file.js";

/** What the checks need to know of an item: the inputs it declares, and which of them must be given. */
export interface ItemShape {
  inputs: readonly string[];
  required: readonly string[];
  /** False when the item takes any input (a tool without a CONFIG_SCHEMA): only required ones are checked. */
  closed: boolean;
}

/** The items a run can reach, by kind and id; null for a kind the run does not carry (a bundle has no knowledge). */
export interface Catalog {
  directive: ReadonlyMap<string, ItemShape> | null;
  knowledge: ReadonlyMap<string, ItemShape> | null;
  tool: ReadonlyMap<string, ItemShape> | null;
}

/** Every problem of `files` against `catalog`. */
export function checkCases(files: readonly TestFile[], catalog: Catalog): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of files) {
    const items = catalog[file.kind];
    if (items === null) continue;
    const shape = items.get(file.id);
    if (!shape) {
      out.push(testedItemNotFound(file.loc, file.kind, file.id, didYouMeanId(file.id, items.keys())));
      continue;
    }
    for (const c of file.cases) out.push(...checkCase(file, c, shape));
  }
  return out;
}

function checkCase(file: TestFile, c: TestCase, shape: ItemShape): Diagnostic[] {
  const out: Diagnostic[] = [];
  const expectedUnknown = new Set(c.refuses?.unknown ?? []);
  for (const [name, loc] of c.inputLocs) {
    if (shape.inputs.includes(name) || expectedUnknown.has(name)) continue;
    if (!shape.closed) continue;
    out.push(undeclaredTestInput(loc, file.id, name, shape.inputs, didYouMean(name, shape.inputs, 3)));
  }
  if (c.refuses) out.push(...checkRefusalNames(file, c, shape));
  const omitted = shape.required.filter((n) => !c.inputLocs.has(n));
  // A case that expects a refusal of any kind has said what happens to it; the run checks it is that one.
  if (omitted.length > 0 && c.refuses === undefined) out.push(omittedTestInput(c.loc, file.id, omitted));
  return out;
}

/** A refusal naming an input the item does not declare, or a missing input the case gives, could never be the payload. */
function checkRefusalNames(file: TestFile, c: TestCase, shape: ItemShape): Diagnostic[] {
  const r = c.refuses!;
  const out: Diagnostic[] = [];
  if (!shape.closed) return out;
  for (const name of [...(r.missing ?? []), ...(r.type ?? [])]) {
    if (!shape.inputs.includes(name)) out.push(undeclaredTestInput(r.loc, file.id, name, shape.inputs, didYouMean(name, shape.inputs, 3)));
  }
  for (const name of r.missing ?? []) {
    if (c.inputLocs.has(name)) out.push(uncheckableExpectation(r.loc, `'${name}' is given under inputs, so it is never refused as missing`));
  }
  return out;
}
