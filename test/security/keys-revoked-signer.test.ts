// A machine key its owner revoked or let expire signs output every verifier refuses. rye build and
// rye sign refuse to use it (exit 1, saying how to rotate), instead of exiting 0 with output nothing
// accepts; after `rye keys rotate` they sign again with the new key.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fingerprint } from "../../src/sign/keys.js";
import { plainDirective, runRye, tempTree, testUserSpace } from "../helpers/cli.js";

const machineFp = (user: string) => fingerprint(readFileSync(join(user, ".ai", "config", "keys", "signing", "public_key.pem"), "utf8"));

async function builtProject() {
  const user = testUserSpace();
  const project = tempTree({ ".ai/directives/t/one.md": plainDirective("one") });
  const env = { USER_SPACE: user };
  expect((await runRye(["build"], project, env)).code).toBe(0);
  return { user, project, env };
}

describe("a revoked or expired machine key does not sign", () => {
  test.each([
    ["revoke", (fp: string) => ["keys", "revoke", fp], /revoked/],
    ["expire", (fp: string) => ["keys", "expire", fp, "2020-01-01"], /expired/],
  ])("after rye keys %s, build and sign exit 1 naming rye keys rotate; after a rotation they sign again", async (_name, command, said) => {
    const { user, project, env } = await builtProject();
    const old = machineFp(user);
    const changed = await runRye(command(old), project, env);
    expect(changed.code, changed.stderr).toBe(0);
    writeFileSync(join(project, ".ai/directives/t/one.md"), plainDirective("one", "Do the other thing."));
    const build = await runRye(["build"], project, env);
    expect(build.code).toBe(1);
    expect(build.stderr).toMatch(said);
    expect(build.stderr).toContain("rye keys rotate");
    const sign = await runRye(["sign", ".ai/directives/t/one.md"], project, env);
    expect(sign.code).toBe(1);
    expect(readFileSync(join(project, ".ai/directives/t/one.md"), "utf8")).not.toContain("rye:signed:");
    const rotated = await runRye(["keys", "rotate"], project, env);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(machineFp(user)).not.toBe(old);
    const again = await runRye(["build"], project, env);
    expect(again.code, again.stderr).toBe(0);
    expect((await runRye(["verify", "out"], project, env)).code).toBe(0);
  }, 60_000);
});
