// verify() with notBefore / current / now, in-process: generated outputs with random counters and
// build times against random pins, and the source list bound by the signed root.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { verify } from "../../src/index.js";
import { sha256Hex } from "../../src/sign/hash-region.js";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { manifestFiles } from "../../src/sign/sign-manifest.js";
import { signModule } from "../../src/sign/sign-module.js";
import { buildMetadata, describeSourceChanges, sourceListText } from "../../src/sign/source-tree.js";
import { createTrustStore } from "../../src/sign/trust-store.js";
import { tempDir } from "./helpers.js";
import { MODULE_SCOPE } from "../../src/output/private-module-folder.js";
import { outsideOf } from "../helpers/outside.js";

const key = signingKeyFrom(generateKeyPair().privatePem);
const trust = createTrustStore([{ fingerprint: key.fingerprint, owner: "t", publicPem: key.publicPem, source: "test" }]);
const iso = (s: number) => `${new Date(s * 1000).toISOString().slice(0, 19)}Z`;

/** An output folder of one module, its root signed with this counter, time and source list. */
function output(dir: string, counter: number, time: string, list = sourceListText([])): string {
  const text = signModule("export const a = 1;\n", key, time);
  // With the package.json every build writes and binds.
  const files = new Map([["d/a.js", text], ["package.json", MODULE_SCOPE]]);
  const build = { counter, sources: sha256Hex(list) };
  for (const [p, t] of manifestFiles([...files].map(([p, t]) => [p, sha256Hex(t)] as const), () => undefined, { version: "1", generated_at: time, build, sourceList: list }, key)) files.set(p, t);
  for (const [p, t] of files) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  return dir;
}

describe("notBefore: accepted exactly when the signed counter or time is at or after the pin", () => {
  const base = tempDir("rye-fresh-api-");
  let n = 0;
  test("counters", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.boolean(), async (counter, pin, asString) => {
        const dir = output(join(base, `c${n++}`), counter, "2026-01-01T00:00:00Z");
        const r = await verify(dir, { trust, notBefore: asString ? String(pin) : pin });
        expect(r.ok).toBe(counter >= pin);
        expect(r.build).toMatchObject({ counter });
        if (!r.ok) expect(r.problems[0]).toContain(`was built with counter ${counter}, before --not-before ${pin}`);
      }),
      { numRuns: 60 },
    );
  });
  test("times", async () => {
    const t0 = Date.parse("2026-03-01T00:00:00Z") / 1000;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }), async (built, pin) => {
        const dir = output(join(base, `t${n++}`), 0, iso(t0 + built));
        const r = await verify(dir, { trust, notBefore: iso(t0 + pin) });
        expect(r.ok).toBe(built >= pin);
        if (!r.ok) expect(r.problems[0]).toContain(`was built at ${iso(t0 + built)}, before --not-before ${iso(t0 + pin)}`);
      }),
      { numRuns: 40 },
    );
  });
});

describe("current: the signed source list against the project's sources now", () => {
  test("a project whose one file changed, is added or removed: refused, naming it; the same sources: accepted", async () => {
    const base = tempDir("rye-fresh-cur-");
    const project = join(base, "p");
    const file = join(project, ".ai", "directives", "x", "a.md");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "# A\n");
    const list = (text: string | null) => sourceListText(text === null ? [] : [{ space: "project", path: ".ai/directives/x/a.md", sha256: sha256Hex(text) }]);
    const env = { USER_SPACE: join(outsideOf(base), "home") };
    const same = await verify(output(join(project, "out"), 0, "2026-01-01T00:00:00Z", list("# A\n")), { trust, current: true, env });
    expect(same.problems).toEqual([]);
    const changed = await verify(output(join(project, "out"), 0, "2026-01-01T00:00:00Z", list("# old A\n")), { trust, current: true, env });
    expect(changed.ok).toBe(false);
    expect(changed.problems[0]).toContain("changed since the build: project .ai/directives/x/a.md");
    const added = await verify(output(join(project, "out"), 0, "2026-01-01T00:00:00Z", list(null)), { trust, current: { project }, env });
    expect(added.problems[0]).toContain("added since the build: project .ai/directives/x/a.md");
    // Without the option, the same stale output verifies: freshness is asked for, never assumed.
    expect((await verify(join(project, "out"), { trust, env })).ok).toBe(true);
  });

  test("describeSourceChanges names every difference of two random lists, and none of equal ones", () => {
    const entry = fc.record({ space: fc.constantFrom("project", "user"), path: fc.stringMatching(/^[a-z]{1,3}\/[a-z ]{1,4}\.md$/), sha256: fc.constantFrom("a", "b").map((c) => c.repeat(64)) });
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: (e) => `${e.space} ${e.path}`, maxLength: 6 }), fc.uniqueArray(entry, { selector: (e) => `${e.space} ${e.path}`, maxLength: 6 }), (a, b) => {
        const key = (e: { space: string; path: string }) => `${e.space} ${e.path}`;
        const before = new Map(a.map((e) => [key(e), e.sha256]));
        const after = new Map(b.map((e) => [key(e), e.sha256]));
        const want = [...after].filter(([k, h]) => before.get(k) !== h).length + [...before.keys()].filter((k) => !after.has(k)).length;
        expect(describeSourceChanges(sourceListText(a), sourceListText(b), 100)).toHaveLength(want);
        expect(buildMetadata(a, 0).sources === buildMetadata(b, 0).sources).toBe(want === 0);
      }),
    );
  });
});
