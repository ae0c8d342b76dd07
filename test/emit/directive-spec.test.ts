// The compact forms a directive module writes its metadata and calls in: expanded by the runtime,
// each gives back exactly the value the compiler had, keys in the same order, or is not used.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compactCalls, compactMetadata } from "../../src/emit/directive-spec.js";
import { value } from "../../src/emit/escape.js";
import { defineDirective, metadataOf } from "../../src/runtime/define-directive.js";
import type { DirectiveCall } from "../../src/runtime/directive.js";

/** What the module's code evaluates to, as the module would load it. */
const evaluate = (code: string): unknown => new Function(`return ${code};`)();
/** Deep equality that also compares the order of keys. */
const exactly = (a: unknown) => JSON.stringify(a, (_k, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.entries(v) : v));

const text = fc.string({ maxLength: 8 });
const field = (input: boolean) =>
  fc.record(
    { name: text, type: fc.constantFrom("string", "integer", "object", "x"), required: fc.boolean(), ...(input ? { default: text } : {}), description: text },
    { requiredKeys: ["name", "type", "required"] },
  );
const metadata = fc.record(
  {
    name: text,
    description: text,
    permissions: fc.array(fc.oneof(fc.record({ tag: fc.constant("cap"), content: fc.oneof(text, text.map((t) => `rye.${t}`)) }), fc.record({ tag: text, content: text })), { maxLength: 3 }),
    inputs: fc.array(fc.oneof(field(true), fc.record({ type: text, name: text, required: fc.boolean() })), { maxLength: 4 }),
    outputs: fc.array(field(false), { maxLength: 3 }),
    templates: fc.constant({}),
    // A key outside METADATA_KEYS: the metadata stays an object.
    acknowledged_risks: fc.constant([]),
  },
  { requiredKeys: ["templates"] },
);

describe("compact metadata", () => {
  test("property: metadataOf(compactMetadata(m)), written as code and evaluated, is m key for key", () => {
    fc.assert(
      fc.property(metadata, (m) => {
        const code = value(compactMetadata(m));
        expect(exactly(metadataOf(evaluate(code) as Record<string, unknown>))).toBe(exactly(m));
      }),
      { numRuns: 300 },
    );
  });

  test("inputs become rows, a missing description a null, capabilities one string without their rye., keys by position", () => {
    const m = {
      permissions: [{ tag: "cap", content: "rye.execute.tool.*" }, { tag: "cap", content: "rye.search.knowledge.*" }],
      inputs: [{ name: "a", type: "string", required: false, default: "x" }, { name: "b", type: "integer", required: true, description: "B" }],
    };
    expect(value(compactMetadata(m))).toBe('[,,,,,,,,"execute.tool.* search.knowledge.*",,,[["a",0,null,"x"],["b","integer",1,"B"]]]');
    expect(exactly(metadataOf(evaluate(value(compactMetadata(m))) as unknown[]))).toBe(exactly(m));
  });

  test("capabilities that would not split back stay a list, and keys out of order an object", () => {
    const perms = (...contents: string[]) => ({ permissions: contents.map((content) => ({ tag: "cap", content })) });
    expect(value(compactMetadata(perms("rye.a", "b.c")))).toBe('[,,,,,,,,["rye.a","b.c"]]');
    expect(value(compactMetadata(perms("rye.a b")))).toBe('[,,,,,,,,["rye.a b"]]');
    expect(value(compactMetadata(perms("rye.")))).toBe('[,,,,,,,,["rye."]]');
    expect(value(compactMetadata({ version: "1", name: "n" }))).toBe('{version:"1",name:"n"}');
    expect(value(compactMetadata({ name: "n", preamble: "p" }))).toBe('["n",,,,,,,,,,,,,,"p"]');
  });
});

describe("compact calls", () => {
  const call = (c: Partial<DirectiveCall>): DirectiveCall => ({ primary: "execute", item_type: "directive", item_id: "a/b", parameters: { x: 1 }, target: { kind: "directive", id: "a/b", space: "project" }, ...c });

  test("a call whose target is the item it names is a row; any other keeps its object", () => {
    const calls = [
      call({}),
      call({ primary: "search", target: { kind: "directive", id: "a/b", space: "project" } }),
      call({ target: { kind: "directive", id: "a/b", space: "user" } }),
      call({ target: null }),
      call({ target: { kind: "tool", id: "a/b", space: "user" } }),
      call({ item_id: null, target: null }),
    ];
    const compact = compactCalls(calls);
    // The usual primary and space are left out.
    expect(compact[0]).toEqual(["directive", "a/b", { x: 1 }]);
    expect(compact[1]).toEqual(["search", "directive", "a/b", { x: 1 }, "project"]);
    expect(compact[2]).toEqual(["execute", "directive", "a/b", { x: 1 }, "user"]);
    expect(compact.slice(3)).toEqual(calls.slice(3));
    const [exports] = defineDirective("t/x", {}, null, () => ({ body: "", content: "", raw: "", actions: [], prompt: "" }), null, {}, evaluate(value(compact)) as DirectiveCall[]);
    expect(exactly(exports.calls)).toBe(exactly(calls));
  });
});
