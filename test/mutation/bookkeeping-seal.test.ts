// The seal that authenticates rye's bookkeeping (bookkeeping-seal.ts): generated records, kinds,
// scopes and secrets, and every single-byte change to a sealed record, must open only as sealed.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Bookkeeping, UNAUTHENTICATED, type RecordKind } from "../../src/cache/bookkeeping-seal.js";

const KINDS: RecordKind[] = ["journal", "build-cache", "up-to-date", "output-record", "lock"];
const secret = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((a) => Buffer.from(a));
const kind = fc.constantFrom(...KINDS);
const scope = fc.stringMatching(/^\/[a-z0-9/._-]{0,40}$/);

describe("bookkeeping seal", () => {
  test("a record opens with the secret, kind and scope it was sealed with, to exactly its text", () => {
    fc.assert(fc.property(secret, kind, scope, fc.string(), (s, k, p, text) => {
      expect(new Bookkeeping(s).open(k, p, new Bookkeeping(s).seal(k, p, text))).toBe(text);
    }));
  });

  test("another secret, kind or scope never opens it", () => {
    fc.assert(fc.property(secret, secret, kind, kind, scope, scope, fc.string(), (s1, s2, k1, k2, p1, p2, text) => {
      const sealed = new Bookkeeping(s1).seal(k1, p1, text);
      const opens = new Bookkeeping(s2).open(k2, p2, sealed) !== null;
      expect(opens).toBe(s1.equals(s2) && k1 === k2 && p1 === p2);
    }));
  });

  test("any change to one character of a sealed record (MAC or text) makes it not open", () => {
    fc.assert(fc.property(secret, kind, scope, fc.string({ minLength: 1 }), fc.nat(), fc.integer({ min: 1, max: 0xffff }), (s, k, p, text, at, delta) => {
      const book = new Bookkeeping(s);
      const sealed = book.seal(k, p, text);
      const i = at % sealed.length;
      const changed = sealed.slice(0, i) + String.fromCharCode((sealed.charCodeAt(i) + delta) % 0x10000) + sealed.slice(i + 1);
      fc.pre(changed !== sealed);
      expect(book.open(k, p, changed)).toBeNull();
    }));
  });

  test("plain text, a truncated seal, a planted all-zero MAC and no secret never open", () => {
    const book = new Bookkeeping(Buffer.alloc(32, 7));
    fc.assert(fc.property(kind, scope, fc.string(), (k, p, text) => {
      expect(book.open(k, p, text)).toBeNull();
      expect(book.open(k, p, `rye-mac:1:${"0".repeat(64)}\n${text}`)).toBeNull();
      expect(book.open(k, p, book.seal(k, p, text).slice(0, 40))).toBeNull();
      expect(UNAUTHENTICATED.open(k, p, UNAUTHENTICATED.seal(k, p, text))).toBeNull();
      expect(UNAUTHENTICATED.open(k, p, book.seal(k, p, text))).toBeNull();
      expect(book.open(k, p, null)).toBeNull();
    }));
    // Upper-case hex decodes to the same bytes: only the exact form `seal` writes opens.
    const sealed = book.seal("journal", "/p", "text");
    const upper = sealed.replace(/^rye-mac:1:([0-9a-f]{64})/, (_, h: string) => `rye-mac:1:${h.toUpperCase()}`);
    expect(upper).not.toBe(sealed);
    expect(book.open("journal", "/p", upper)).toBeNull();
    expect(UNAUTHENTICATED.authenticates).toBe(false);
    expect(book.authenticates).toBe(true);
  });
});
