// A parallel build's sources travel to build workers as UTF-8 in one shared buffer (shared-sources.ts):
// every field must come back as it was, texts that UTF-8 cannot carry stay strings, and the sending
// thread's own objects read the same texts afterwards.
import { describe, expect, test } from "vitest";
import { receiveSources, shareSources } from "../../src/builder/shared-sources.js";
import type { SourceFile } from "../../src/compile/source.js";

const sources = (): SourceFile[] => [
  { kind: "directive", id: "a/b", path: ".ai/directives/a/b.md", text: "plain ascii\n" },
  { kind: "knowledge", id: "k", path: ".ai/knowledge/k.md", ext: ".md", space: "user", text: "Grüße — 日本語 😀\r\n" },
  { kind: "tool", id: "t", path: ".ai/tools/t.py", ext: ".py", space: "system:x", text: "" },
  { kind: "directive", id: "lone", path: ".ai/directives/lone.md", text: "half a pair: \uD800 here" },
];

describe("shared sources", () => {
  test("come back field for field, on the receiving side and the sending side", () => {
    const sent = sources();
    const shared = shareSources(sent);
    // What a worker receives is a structured clone.
    const received = receiveSources(structuredClone(shared));
    const plain = sources();
    expect(received.map((s) => ({ ...s }))).toEqual(plain);
    expect(sent.map((s) => ({ ...s }))).toEqual(plain);
    expect(received.map((s) => Object.keys(s).sort())).toEqual(plain.map((s) => Object.keys(s).sort()));
  });

  test("hold each text once, as UTF-8; a lone surrogate stays a string", () => {
    const shared = shareSources(sources());
    const utf8 = sources().slice(0, 3).reduce((n, s) => n + Buffer.byteLength(s.text), 0);
    expect(shared.buffer.byteLength).toBe(utf8);
    expect(shared.entries[3]![5]).toBe("half a pair: \uD800 here");
  });

  test("a text assigned later is a plain value again", () => {
    const sent = sources();
    shareSources(sent);
    sent[0]!.text = "changed";
    expect(sent[0]!.text).toBe("changed");
    expect(Object.getOwnPropertyDescriptor(sent[0], "text")).toMatchObject({ value: "changed", writable: true });
  });
});
