// Key lifecycles (decisions.md #26): random sequences of trust, revoke, expire, rotate and not-before
// on the user space's trust store, written as rye keys writes them, against a tiny model of what
// must be accepted. verify() of output signed by each key must accept exactly what the model does.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { verify } from "../../src/index.js";
import { generateKeyPair, signingKeyFrom, type SigningKey } from "../../src/sign/keys.js";
import { findTrustEntry, setEntryFields } from "../../src/sign/trust-entries.js";
import { writeTrustedKey } from "../../src/sign/trust-store.js";
import { writeSignedOutput } from "../helpers/signed-output.js";
import { tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const KEYS: SigningKey[] = [0, 1, 2].map(() => signingKeyFrom(generateKeyPair().privatePem));
const T0 = Date.parse("2026-01-01T00:00:00Z");
const DAY = 86_400_000;
const iso = (day: number) => `${new Date(T0 + day * DAY).toISOString().slice(0, 19)}Z`;

type Op =
  | { op: "trust"; k: number }
  | { op: "revoke"; k: number }
  | { op: "expire"; k: number; day: number }
  | { op: "not_before"; k: number; day: number }
  | { op: "rotate"; k: number; to: number; day: number };

/** What the model says of each key: the entry's fields, as the last write left them. */
interface Entry {
  revoked: boolean;
  expires: number | null;
  notBefore: number | null;
}

function model(ops: Op[]): Map<number, Entry> {
  const m = new Map<number, Entry>();
  const fresh = (): Entry => ({ revoked: false, expires: null, notBefore: null });
  for (const o of ops) {
    // Every op but trust writes an entry if the key has none (rye keys does so from a .pem file).
    if (o.op === "trust") m.set(o.k, fresh());
    const e = m.get(o.k) ?? fresh();
    m.set(o.k, e);
    if (o.op === "revoke") e.revoked = true;
    if (o.op === "expire") e.expires = o.day;
    if (o.op === "not_before") e.notBefore = o.day;
    if (o.op === "rotate") {
      e.expires = o.day;
      if (!m.has(o.to)) m.set(o.to, fresh());
    }
  }
  return m;
}

/** Accepted at `day`: trusted, not revoked, not yet expired (or superseded), and not before its start. */
function accepts(m: Map<number, Entry>, k: number, day: number): boolean {
  const e = m.get(k);
  if (!e || e.revoked) return false;
  if (e.expires !== null && day >= e.expires) return false;
  return e.notBefore === null || day >= e.notBefore;
}

/** Applies the ops to a real trust store, as `rye keys trust | revoke | expire | rotate` edit it. */
function apply(space: string, ops: Op[]): void {
  rmSync(join(space, ".ai"), { recursive: true, force: true });
  const entry = (k: number) => {
    const found = findTrustEntry(space, KEYS[k]!.fingerprint);
    return typeof found === "string" ? writeTrustedKey(space, KEYS[k]!.publicPem, { owner: `k${k}` }) : found.path;
  };
  for (const o of ops) {
    if (o.op === "trust") writeTrustedKey(space, KEYS[o.k]!.publicPem, { owner: `k${o.k}` });
    else if (o.op === "revoke") setEntryFields(entry(o.k), { revoked: iso(0) }, undefined, iso(0));
    else if (o.op === "expire") setEntryFields(entry(o.k), { expires: iso(o.day) }, undefined, iso(0));
    else if (o.op === "not_before") setEntryFields(entry(o.k), { not_before: iso(o.day) }, undefined, iso(0));
    else {
      entry(o.to);
      setEntryFields(entry(o.k), { expires: iso(o.day), replaced_by: KEYS[o.to]!.fingerprint }, undefined, iso(0));
    }
  }
}

const k = fc.integer({ min: 0, max: 2 });
const day = fc.integer({ min: -5, max: 5 });
const op: fc.Arbitrary<Op> = fc.oneof(
  k.map((k) => ({ op: "trust" as const, k })),
  k.map((k) => ({ op: "revoke" as const, k })),
  fc.record({ k, day }).map((r) => ({ op: "expire" as const, ...r })),
  fc.record({ k, day }).map((r) => ({ op: "not_before" as const, ...r })),
  fc.record({ k, to: k, day }).filter((r) => r.k !== r.to).map((r) => ({ op: "rotate" as const, ...r })),
);

describe("key lifecycle: verify() accepts exactly what the model accepts", () => {
  const base = tempDir("rye-keys-");
  const space = join(outsideOf(base), "home");
  mkdirSync(space, { recursive: true });
  // One output folder per key, each in a project of its own outside the user space.
  const outs = KEYS.map((key, i) => {
    const out = join(base, `p${i}`, "out");
    writeSignedOutput(out, { "a.js": ["export const a = 1;\n", "x/a", "src"] }, key);
    return out;
  });
  const env = { USER_SPACE: space, PATH: process.env.PATH ?? "" };

  test("random sequences of trust / revoke / expire / not_before / rotate, checked at random days", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 8 }), k, day, async (ops, signer, at) => {
        apply(space, ops);
        const r = await verify(outs[signer]!, { env, cwd: base, now: new Date(T0 + at * DAY + 1000) });
        const want = accepts(model(ops), signer, at);
        expect(r.ok, `${JSON.stringify(ops)} k${signer} day ${at}: ${r.problems.join("\n")}`).toBe(want);
        if (!want && model(ops).has(signer)) {
          // A refused key is named with the entry that refused it, and the exit of rye verify follows ok.
          expect(r.problems.join("\n")).toMatch(/Refused key [0-9a-f]{16} for .*manifest\.json\n  Key [0-9a-f]{16} (is revoked|expired|was superseded|is not valid before).*trust entry .*\.toml/);
        }
      }),
      { numRuns: 150 },
    );
  });
});
