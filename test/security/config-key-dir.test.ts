// A checkout's rye.config.json may not choose the key that signs: a `signingKeyDir` anywhere but in
// the user space's .ai/ (which the environment names) is refused at the setting, and nothing is
// signed with it, whether the folder lies in the git working tree or beside a project that has none
// (an archive carries both). A folder of the user space's .ai/ holding a key is used.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { runRye } from "../helpers/cli.js";

const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));

function layout(git: boolean) {
  const mono = mkdtempSync(join(tmpdir(), "rye-keydir-"));
  if (git) mkdirSync(join(mono, ".git"));
  const app = join(mono, "app");
  cpSync(repoAi, join(app, ".ai"), { recursive: true });
  const home = mkdtempSync(join(tmpdir(), "rye-keydir-home-"));
  return { mono, app, home };
}

describe("signingKeyDir from the checkout's config", () => {
  test.each([true, false])("a key folder beside the project, in a git working tree: %s", async (git) => {
    const { mono, app, home } = layout(git);
    const keys = join(mono, "keys");
    expect((await runRye(["keys", "generate"], mono, { USER_SPACE: home, RYE_SIGNING_KEY_DIR: keys })).code).toBe(0);
    expect(existsSync(join(keys, "private_key.pem"))).toBe(true);
    writeFileSync(join(app, "rye.config.json"), JSON.stringify({ signingKeyDir: "../keys" }));
    const built = await runRye(["build", "--project", app], app, { USER_SPACE: home });
    expect(built.code).toBe(1);
    expect(built.stderr).toMatch(git ? /rye\.config\.json:1:\d+ - error RYE9002: .*signingKeyDir.*git working tree/ : /rye\.config\.json:1:\d+ - error RYE9002: .*signingKeyDir.*not a folder of your user space's \.ai\//);
    expect(existsSync(join(app, "out", "manifest.json"))).toBe(false);
  });

  test("a key folder of the user space's .ai/ is used: the build is signed by that key", async () => {
    const { app, home } = layout(false);
    const keys = join(home, ".ai", "config", "keys", "team");
    const made = await runRye(["keys", "generate"], app, { USER_SPACE: home, RYE_SIGNING_KEY_DIR: keys });
    expect(made.code, made.stderr).toBe(0);
    const fingerprint = /([0-9a-f]{16})/.exec(made.stdout + made.stderr)![1]!;
    writeFileSync(join(app, "rye.config.json"), JSON.stringify({ signingKeyDir: keys }));
    const built = await runRye(["build", "--project", app], app, { USER_SPACE: home });
    expect(built.code, built.stderr).toBe(0);
    expect(readFileSync(join(app, "out", "manifest.json"), "utf8")).toContain(fingerprint);
  });
});
