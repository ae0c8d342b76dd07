// A trusted key's limits (src/sign/key-lifecycle.ts): how times are read (ISO text, Date objects,
// TOML dates), which fields set which limit, and the exact refusal each limit gives.
import { parse as parseToml } from "smol-toml";
import { describe, expect, test } from "vitest";
import { isoSeconds, KEY_REFUSED_FIX, keyRefusal, parseLimits, timeOf, type KeyLimit } from "../../src/sign/key-lifecycle.js";

const FP = "0123456789abcdef";
const MAY_1 = Date.UTC(2026, 4, 1);

describe("timeOf", () => {
  test("ISO text: a bare date is midnight UTC, a time keeps its offset", () => {
    expect(timeOf("2026-05-01")).toBe(MAY_1);
    expect(timeOf("2026-05-01T00:00:00Z")).toBe(MAY_1);
    expect(timeOf("2026-05-01T02:30:00+02:30")).toBe(MAY_1);
    expect(timeOf("2026-05-01T00:00:01.5Z")).toBe(MAY_1 + 1500);
  });

  test("a bare date that is no calendar day is no time", () => {
    for (const s of ["2026-01-32", "2026-13-01", "2026-00-10", "2026-05-00"]) expect(timeOf(s), s).toBeNaN();
  });

  test("Date objects and TOML dates count; an invalid Date is no time, not an exception", () => {
    expect(timeOf(new Date(MAY_1))).toBe(MAY_1);
    expect(timeOf(new Date(Number.NaN))).toBeNaN();
    const toml = parseToml("a = 2026-05-01\nb = 2026-05-01T00:00:00Z\nc = 2026-05-01T04:00:00+04:00") as Record<string, unknown>;
    expect([timeOf(toml.a), timeOf(toml.b), timeOf(toml.c)]).toEqual([MAY_1, MAY_1, MAY_1]);
    // Anything else with a toISOString method (smol-toml's own date type, for one) is read through it.
    expect(timeOf({ toISOString: () => "2026-05-01T00:00:00.000Z" })).toBe(MAY_1);
    expect(timeOf({ toISOString: () => "2026-05-01" })).toBe(MAY_1);
  });

  test("other values are no time, and reading them never throws", () => {
    for (const v of [null, undefined, 5, MAY_1, true, {}, [], { toISOString: "2026-05-01" }, "", "soon"]) expect(timeOf(v), String(v)).toBeNaN();
  });

  test("isoSeconds writes whole seconds in UTC", () => {
    expect(isoSeconds(MAY_1 + 1999)).toBe("2026-05-01T00:00:01Z");
    expect(isoSeconds(0)).toBe("1970-01-01T00:00:00Z");
  });
});

describe("parseLimits", () => {
  test("each field sets its limit, with the time in whole UTC seconds and the entry that set it", () => {
    expect(parseLimits({ revoked: "2026-05-01", expires: "2027-01-01T12:00:00.250+01:00", not_before: "2026-01-01" }, "e.toml")).toStrictEqual([
      { kind: "revoked", at: "2026-05-01T00:00:00Z", entry: "e.toml" },
      { kind: "expires", at: "2027-01-01T11:00:00Z", entry: "e.toml" },
      { kind: "not_before", at: "2026-01-01T00:00:00Z", entry: "e.toml" },
    ]);
    expect(parseLimits({ revoked: true }, "r.toml")).toStrictEqual([{ kind: "revoked", at: null, entry: "r.toml" }]);
    expect(parseLimits({}, "n.toml")).toStrictEqual([]);
    expect(parseLimits({ revoked: false, owner: "x" }, "n.toml")).toStrictEqual([]);
  });

  test("replaced_by is kept only as text, and only on an expiry", () => {
    expect(parseLimits({ expires: "2026-05-01", replaced_by: "fedcba9876543210" }, "e.toml")).toStrictEqual([
      { kind: "expires", at: "2026-05-01T00:00:00Z", replacedBy: "fedcba9876543210", entry: "e.toml" },
    ]);
    expect(parseLimits({ expires: "2026-05-01", replaced_by: 5 }, "e.toml")).toStrictEqual([{ kind: "expires", at: "2026-05-01T00:00:00Z", entry: "e.toml" }]);
    expect(parseLimits({ replaced_by: "fedcba9876543210" }, "e.toml")).toStrictEqual([]);
  });

  test("TOML dates from a trust entry", () => {
    const raw = parseToml("expires = 2026-05-01\nnot_before = 2026-01-01T00:00:00Z") as Record<string, unknown>;
    expect(parseLimits(raw, "t.toml").map((l) => l.at)).toEqual(["2026-05-01T00:00:00Z", "2026-01-01T00:00:00Z"]);
  });

  test("a present field that is not a time names itself and its value", () => {
    expect(() => parseLimits({ revoked: "soon" }, "x.toml")).toThrow('revoked is not a date or time ("soon")');
    expect(() => parseLimits({ expires: 5 }, "x.toml")).toThrow("expires is not a date or time (5)");
    expect(() => parseLimits({ not_before: null }, "x.toml")).toThrow("not_before is not a date or time (null)");
  });
});

describe("keyRefusal", () => {
  const at = (iso: string) => new Date(iso);
  const limit = (kind: KeyLimit["kind"], when: string | null, extra: Partial<KeyLimit> = {}): KeyLimit => ({ kind, at: when, entry: "t.toml", ...extra });

  test("an entry that cannot be read refuses its key, before any time limit is looked at", () => {
    const refused = limit("refused", null, { reason: "was changed after it was signed" });
    expect(keyRefusal(FP, [refused], at("2026-01-01T00:00:00Z"))).toBe(
      `Key ${FP} is refused: its trust entry t.toml was changed after it was signed, so whether it revokes or limits the key cannot be told; nothing the key signed is accepted until the entry is fixed or removed`,
    );
    expect(keyRefusal(FP, [limit("refused", null)], at("2026-01-01T00:00:00Z"))).toMatch(/^Key [0-9a-f]+ is refused: its trust entry t\.toml cannot be read, so/);
    // A limit that does not apply yet does not hide the refusal behind it.
    expect(keyRefusal(FP, [limit("expires", "2099-01-01T00:00:00Z"), refused], at("2026-01-01T00:00:00Z"))).toMatch(/is refused: its trust entry t\.toml was changed/);
    // A revocation still says revoked.
    expect(keyRefusal(FP, [refused, limit("revoked", null)], at("2026-01-01T00:00:00Z"))).toMatch(/is revoked by the trust entry/);
  });

  test("no limits, or none that applies, is no refusal", () => {
    expect(keyRefusal(FP, undefined, at("2026-01-01T00:00:00Z"))).toBeNull();
    expect(keyRefusal(FP, [], at("2026-01-01T00:00:00Z"))).toBeNull();
    expect(keyRefusal(FP, [limit("expires", "2026-05-01T00:00:00Z"), limit("not_before", "2026-01-01T00:00:00Z")], at("2026-03-01T00:00:00Z"))).toBeNull();
  });

  test("a revocation says since when, if known, and which entry", () => {
    expect(keyRefusal(FP, [limit("revoked", "2026-05-01T00:00:00Z")], at("2020-01-01T00:00:00Z"))).toBe(
      `Key ${FP} is revoked (since 2026-05-01T00:00:00Z) by the trust entry t.toml: nothing it signed is accepted`,
    );
    expect(keyRefusal(FP, [limit("revoked", null)], at("2020-01-01T00:00:00Z"))).toBe(`Key ${FP} is revoked by the trust entry t.toml: nothing it signed is accepted`);
  });

  test("a revocation listed after other limits still wins", () => {
    const limits = [limit("not_before", "2030-01-01T00:00:00Z"), limit("revoked", null, { entry: "r.toml" })];
    expect(keyRefusal(FP, limits, at("2020-01-01T00:00:00Z"))).toMatch(/is revoked by the trust entry r\.toml/);
  });

  test("an expiry with a successor names it; at the instant of expiry the key is refused", () => {
    const rotated = [limit("expires", "2026-05-01T00:00:00Z", { replacedBy: "fedcba9876543210" })];
    expect(keyRefusal(FP, rotated, new Date(MAY_1))).toBe(`Key ${FP} was superseded by fedcba9876543210 at 2026-05-01T00:00:00Z (trust entry t.toml): output it signed is no longer accepted`);
    expect(keyRefusal(FP, rotated, new Date(MAY_1 - 1))).toBeNull();
    expect(keyRefusal(FP, [limit("expires", "2026-05-01T00:00:00Z")], new Date(MAY_1 + 1))).toBe(`Key ${FP} expired at 2026-05-01T00:00:00Z (trust entry t.toml)`);
  });

  test("not_before refuses until its instant; the first limit that refuses is the one named", () => {
    const nb = [limit("not_before", "2026-05-01T00:00:00Z")];
    expect(keyRefusal(FP, nb, new Date(MAY_1 - 1))).toBe(`Key ${FP} is not valid before 2026-05-01T00:00:00Z (trust entry t.toml)`);
    expect(keyRefusal(FP, nb, new Date(MAY_1))).toBeNull();
    const both = [limit("not_before", "2026-05-01T00:00:00Z", { entry: "a.toml" }), limit("expires", "2026-01-01T00:00:00Z", { entry: "b.toml" })];
    expect(keyRefusal(FP, both, at("2026-03-01T00:00:00Z"))).toMatch(/not valid before .* \(trust entry a\.toml\)$/);
    expect(keyRefusal(FP, [both[1]!, both[0]!], at("2026-03-01T00:00:00Z"))).toMatch(/expired at .* \(trust entry b\.toml\)$/);
  });

  test("the fix points to a trusted key and to rye keys list", () => {
    expect(KEY_REFUSED_FIX).toMatch(/trusted now/);
    expect(KEY_REFUSED_FIX).toContain("rye keys list");
  });
});
