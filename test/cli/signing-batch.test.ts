// A build thread signs new modules a few items at a time (SigningBatch). What it writes must be
// signModule's text to the byte, each record must end up naming the signed file's sha256, size and
// mtime, and an item must be handed on only after every file it holds is written, in the order the
// items came.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { SigningBatch } from "../../src/builder/signing-batch.js";
import { signModule } from "../../src/sign/sign-module.js";
import { TEST_KEY } from "../sign/fixtures.js";

const TS = "2026-01-01T00:00:00Z";

function recorder() {
  const written = new Map<string, Buffer>();
  const events: string[] = [];
  const write = (rel: string, chunks: Buffer[]) => {
    written.set(rel, Buffer.concat(chunks));
    events.push(`write ${rel}`);
    return { size: written.get(rel)!.length, mtimeMs: 1000 + written.size };
  };
  return { written, events, write };
}

describe("SigningBatch", () => {
  test("writes signModule's bytes (a declaration's as they are) and completes each record before its item is passed on", () => {
    const { written, events, write } = recorder();
    const seen: string[][] = [];
    const batch = new SigningBatch<{ name: string; records: ReturnType<SigningBatch<unknown>["file"]>[] }>(TEST_KEY, TS, write, (item) => {
      events.push(`ready ${item.name}`);
      for (const r of item.records) expect(written.has(r[0])).toBe(true);
      seen.push(item.records.map((r) => r.join(" ")));
    }, 2);
    const texts: Record<string, string> = { "a.js": "export const a = 1;\n", "a.d.ts": "export declare const a: 1;\n", "b.js": "export const b = `Grüße 😀`;\n" };
    batch.item({ name: "a", records: [batch.file("a.js", texts["a.js"]!), batch.file("a.d.ts", texts["a.d.ts"]!)] });
    expect(events).toEqual([]); // not yet: the batch holds two items
    batch.item({ name: "b", records: [batch.file("b.js", texts["b.js"]!)] });
    expect(events).toEqual(["write a.js", "write a.d.ts", "write b.js", "ready a", "ready b"]);
    batch.item({ name: "c", records: [] });
    batch.flush();
    expect(events.at(-1)).toBe("ready c");
    for (const [rel, text] of Object.entries(texts)) {
      const expected = Buffer.from(rel.endsWith(".d.ts") ? text : signModule(text, TEST_KEY, TS), "utf8");
      expect(written.get(rel)!.equals(expected)).toBe(true);
    }
    expect(written.get("a.js")!.toString().startsWith("// rye:signed:")).toBe(true);
    const sha = (rel: string) => createHash("sha256").update(written.get(rel)!).digest("hex");
    expect(seen[0]).toEqual([`a.js ${sha("a.js")} ${written.get("a.js")!.length} 1001`, `a.d.ts ${sha("a.d.ts")} ${written.get("a.d.ts")!.length} 1002`]);
    expect(seen[1]).toEqual([`b.js ${sha("b.js")} ${written.get("b.js")!.length} 1003`]);
    expect(seen[2]).toEqual([]);
  });

  test("a write that fails stops the batch before any of its items is passed on", () => {
    const ready: string[] = [];
    const batch = new SigningBatch<string>(TEST_KEY, TS, () => {
      throw new Error("ENOSPC");
    }, (item) => ready.push(item), 4);
    batch.file("a.js", "export {};\n");
    batch.item("a");
    expect(() => batch.flush()).toThrow("ENOSPC");
    expect(ready).toEqual([]);
  });
});
