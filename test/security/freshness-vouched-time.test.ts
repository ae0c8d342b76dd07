// The signed build time is what `rye verify --not-before` trusts, so only whoever runs the build
// sets it (SOURCE_DATE_EPOCH, else the epoch). A source's `rye:signed:` time is never taken: the
// signature covers the content hash alone (rye-reference §6, the original's format), so the time
// beside it is text the checkout may edit even on a line whose signature verifies with a trusted key.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { generateKeyPair, loadSigningKey, signingKeyFrom } from "../../src/sign/keys.js";
import { signItem } from "../../src/sign/sign-item.js";
import { plainDirective, runRye, tempTree, testUserSpace } from "../helpers/cli.js";

const EPOCH = "1970-01-01T00:00:00Z";
const SIGNED = ".ai/directives/t/signed.md";
const generatedAt = (project: string) => (JSON.parse(readFileSync(join(project, "out", "manifest.json"), "utf8")) as { generated_at: string }).generated_at;
/** The signature line's time field replaced; hash, signature and key id kept. */
const retimed = (text: string, at: string) => text.replace(/^(<!-- rye:signed:)[^:]*(?::\d\d){2}Z|^(<!-- rye:signed:)[^:]*/, (_m, a?: string, b?: string) => `${a ?? b}${at}`);

/** A project whose one directive carries `signed` (a whole file) next to an unsigned one. */
async function built(signed: string, user = testUserSpace(), env: NodeJS.ProcessEnv = {}) {
  const project = tempTree({ [SIGNED]: signed, ".ai/directives/t/plain.md": plainDirective("plain") });
  const build = await runRye(["build"], project, { USER_SPACE: user, ...env });
  expect(build.code, build.stderr).toBe(0);
  return { project, user };
}

/** A user space whose machine key exists, and that key (trusted on this machine). */
async function machine() {
  const user = testUserSpace();
  await built(plainDirective("signed"), user);
  return { user, key: loadSigningKey(join(user, ".ai", "config", "keys", "signing")) };
}

const timestamp = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2199-12-31T23:59:59Z"), noInvalidDate: true }).map((d) => d.toISOString().replace(/\.\d{3}Z$/, "Z"));

describe("the build time a checkout cannot choose", () => {
  test("a forged signature line (any time, any hash, any key id) leaves the build time at the epoch, and --not-before refuses the output", async () => {
    await fc.assert(
      fc.asyncProperty(timestamp, fc.stringMatching(/^[0-9a-f]{16}$/), async (at, fp) => {
        const forged = `<!-- rye:signed:${at}:${"0".repeat(64)}:${"A".repeat(86)}:${fp} -->\n${plainDirective("signed")}`;
        const { project, user } = await built(forged);
        expect(generatedAt(project)).toBe(EPOCH);
        const verify = await runRye(["verify", "out", "--not-before", "2000-01-01T00:00:00Z"], project, { USER_SPACE: user });
        expect(verify.code).not.toBe(0);
      }),
      { numRuns: 4 },
    );
  }, 120_000);

  test("a valid signature by a key nobody here trusts sets nothing either", async () => {
    const stranger = signingKeyFrom(generateKeyPair().privatePem);
    const { project } = await built(signItem(plainDirective("signed"), "directive", stranger, "2099-01-01T00:00:00Z"));
    expect(generatedAt(project)).toBe(EPOCH);
  });

  // Every value the unsigned time field can be edited to, on a line signed by this machine's own
  // (trusted) key: the signature still verifies, and the build time is still not that value.
  const edits = ["2099-01-01T00:00:00Z", "2031-02-03T04:05:06Z", "1971-01-01T00:00:00Z", "2099-13-45T99:99:99Z", "tomorrow", ""];
  test.each(edits)("a trusted signature line whose time is edited to %j sets nothing", async (at) => {
    const { user, key } = await machine();
    const text = retimed(signItem(plainDirective("signed"), "directive", key, "2026-01-02T03:04:05Z"), at);
    expect(text.split("\n")[0]).toContain(`rye:signed:${at}:`);
    const { project } = await built(text, user);
    expect(generatedAt(project)).toBe(EPOCH);
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(at) && !at.startsWith("2099-13")) {
      // The premise: the time is not under the signature, so the edited line still verifies.
      expect((await runRye(["verify", SIGNED], project, { USER_SPACE: user })).code).toBe(0);
    }
    const stamped = await built(text, user, { SOURCE_DATE_EPOCH: "1893456000" });
    expect(generatedAt(stamped.project)).toBe("2030-01-01T00:00:00Z");
  }, 60_000);

  test("even an unedited trusted signature time is not taken: it is as unsigned as an edited one", async () => {
    const { user, key } = await machine();
    const { project } = await built(signItem(plainDirective("signed"), "directive", key, "2031-02-03T04:05:06Z"), user);
    expect(generatedAt(project)).toBe(EPOCH);
  });

  // The hostile build runs with or without SOURCE_DATE_EPOCH; the deployed one pins its own time.
  test.each([["without SOURCE_DATE_EPOCH", {}], ["with an older SOURCE_DATE_EPOCH", { SOURCE_DATE_EPOCH: "1767225600" }]])(
    "an output built from a source whose time was edited to 2099 (%s), restored over a newer build, is refused by --not-before",
    async (_how, env: NodeJS.ProcessEnv) => {
      const { user, key } = await machine();
      const hostile = retimed(signItem(plainDirective("signed", "Old text."), "directive", key, "2026-01-02T03:04:05Z"), "2099-01-01T00:00:00Z");
      const { project } = await built(hostile, user, env);
      expect(generatedAt(project)).not.toBe("2099-01-01T00:00:00Z");
      const old = join(testUserSpace(), "old-out");
      cpSync(join(project, "out"), old, { recursive: true });
      writeFileSync(join(project, SIGNED), signItem(plainDirective("signed", "New text."), "directive", key, "2026-03-01T00:00:00Z"));
      expect((await runRye(["build"], project, { USER_SPACE: user, SOURCE_DATE_EPOCH: "1772323200" })).code).toBe(0);
      const deployed = generatedAt(project);
      expect(deployed).toBe("2026-03-01T00:00:00Z");
      rmSync(join(project, "out"), { recursive: true, force: true });
      cpSync(old, join(project, "out"), { recursive: true });
      expect((await runRye(["verify", "out"], project, { USER_SPACE: user })).code).toBe(0); // unpinned, a valid older build
      // A deploy step guarded by the pin: it runs only when verify passes.
      const marker = join(project, "deployed-old-output");
      const verify = await runRye(["verify", "--not-before", deployed, "out"], project, { USER_SPACE: user });
      if (verify.code === 0) writeFileSync(marker, "old output deployed");
      expect(verify.code).not.toBe(0);
      expect(existsSync(marker)).toBe(false);
    },
    60_000,
  );

  test("SOURCE_DATE_EPOCH, set by whoever runs the build, wins", async () => {
    const project = tempTree({ ".ai/directives/t/plain.md": plainDirective("plain") });
    const build = await runRye(["build"], project, { USER_SPACE: testUserSpace(), SOURCE_DATE_EPOCH: "1893456000" });
    expect(build.code, build.stderr).toBe(0);
    expect(generatedAt(project)).toBe("2030-01-01T00:00:00Z");
  });
});
