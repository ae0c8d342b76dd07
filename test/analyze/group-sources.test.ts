import { describe, expect, test } from "vitest";
import { groupSources } from "../../src/compile/compile-directives.js";
import type { SourceFile } from "../../src/model/source.js";

// Each id's files are probed project → user → system, whatever order the caller lists them in.
const src = (id: string, space?: string): SourceFile => ({ kind: "directive", id, path: `${space ?? "project"}/${id}.md`, text: "", ...(space ? { space } : {}) });

describe("groupSources", () => {
  test("probes each id's files project → user → system, in the order given or not", () => {
    const inOrder = [src("a"), src("b"), src("a", "user"), src("a", "system:0"), src("c", "system:1")];
    const shuffled = [inOrder[3]!, inOrder[2]!, inOrder[4]!, inOrder[0]!, inOrder[1]!];
    for (const sources of [inOrder, shuffled]) {
      const { byId, order, duplicates } = groupSources(sources);
      expect(byId.directive.get("a")!.map((s) => s.space ?? "project")).toEqual(["project", "user", "system:0"]);
      expect(order.map((s) => s.id)).toEqual(["a", "b"]);
      expect(duplicates).toEqual([]);
    }
  });

  test("keeps the given order within a space", () => {
    const sources = [src("b"), src("a"), src("b", "user"), src("a", "user")];
    expect(groupSources(sources).order.map((s) => s.id)).toEqual(["b", "a"]);
    expect(groupSources([sources[2]!, sources[3]!, sources[0]!, sources[1]!]).order.map((s) => s.id)).toEqual(["b", "a"]);
  });
});
