// The bookkeeping seal to the letter, against node:crypto computed here: the MAC covers the kind and
// the scope (NUL-separated) before the text, and a seal made without a secret carries 64 zeros.
import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Bookkeeping, UNAUTHENTICATED } from "../../src/cache/bookkeeping-seal.js";

describe("the bookkeeping seal's exact form", () => {
  test("the MAC is HMAC-SHA256 over kind NUL scope NUL text", () => {
    const secret = randomBytes(32);
    const b = new Bookkeeping(secret);
    const expected = createHmac("sha256", secret).update("journal\0/work/p\0").update("{\"a\":1}").digest("hex");
    expect(b.mac("journal", "/work/p", '{"a":1}')).toBe(expected);
    expect(b.seal("journal", "/work/p", '{"a":1}')).toBe(`rye-mac:1:${expected}\n{"a":1}`);
    // The same text under another kind or scope has another MAC.
    expect(b.mac("lock", "/work/p", '{"a":1}')).not.toBe(expected);
    expect(b.mac("journal", "/work/q", '{"a":1}')).not.toBe(expected);
  });

  test("without a secret: a seal of 64 zeros, no MAC, and nothing opens", () => {
    expect(UNAUTHENTICATED.seal("lock", "/p", "x")).toBe(`rye-mac:1:${"0".repeat(64)}\nx`);
    expect(UNAUTHENTICATED.mac("lock", "/p", "x")).toBeNull();
    expect(UNAUTHENTICATED.authenticates).toBe(false);
    expect(UNAUTHENTICATED.open("lock", "/p", `rye-mac:1:${"0".repeat(64)}\nx`)).toBeNull();
  });

  test("a record whose MAC line is cut short or not ended by a newline does not open", () => {
    const b = new Bookkeeping(randomBytes(32));
    const sealed = b.seal("up-to-date", "/p", "text");
    expect(b.open("up-to-date", "/p", sealed)).toBe("text");
    expect(b.open("up-to-date", "/p", sealed.slice(0, 40))).toBeNull();
    expect(b.open("up-to-date", "/p", sealed.replace("\n", " "))).toBeNull();
    expect(b.open("up-to-date", "/p", `x${sealed.slice(1)}`)).toBeNull();
  });
});
