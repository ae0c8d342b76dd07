// The signed build time is what `rye verify --not-before` trusts, so a checkout must not choose it:
// without SOURCE_DATE_EPOCH it is the newest source signature time that a key from outside the
// checkout vouches for. A forged line, or a valid signature by a key nobody trusts here, sets nothing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { generateKeyPair, loadSigningKey, signingKeyFrom } from "../../src/sign/keys.js";
import { signItem } from "../../src/sign/sign-item.js";
import { plainDirective, runRye, tempTree, testUserSpace } from "../helpers/cli.js";

const EPOCH = "1970-01-01T00:00:00Z";
const generatedAt = (project: string) => (JSON.parse(readFileSync(join(project, "out", "manifest.json"), "utf8")) as { generated_at: string }).generated_at;

/** A project whose one directive carries `signed` (a whole file) next to an unsigned one. */
async function built(signed: string, user = testUserSpace()) {
  const project = tempTree({ ".ai/directives/t/signed.md": signed, ".ai/directives/t/plain.md": plainDirective("plain") });
  const build = await runRye(["build"], project, { USER_SPACE: user });
  expect(build.code, build.stderr).toBe(0);
  return { project, user };
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

  test("a signature by this machine's own key sets the build time", async () => {
    const user = testUserSpace();
    // The first build generates the machine key; a source signed with it is then vouched for.
    await built(plainDirective("signed"), user);
    const key = loadSigningKey(join(user, ".ai", "config", "keys", "signing"));
    const { project } = await built(signItem(plainDirective("signed"), "directive", key, "2031-02-03T04:05:06Z"), user);
    expect(generatedAt(project)).toBe("2031-02-03T04:05:06Z");
  });

  test("SOURCE_DATE_EPOCH, set by whoever runs the build, wins", async () => {
    const project = tempTree({ ".ai/directives/t/plain.md": plainDirective("plain") });
    const build = await runRye(["build"], project, { USER_SPACE: testUserSpace(), SOURCE_DATE_EPOCH: "1893456000" });
    expect(build.code, build.stderr).toBe(0);
    expect(generatedAt(project)).toBe("2030-01-01T00:00:00Z");
  });
});
