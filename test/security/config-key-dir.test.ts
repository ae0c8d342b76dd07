// A checkout's rye.config.json may not choose the key that signs: a `signingKeyDir` inside the project
// or anywhere in the git working tree that holds it (a monorepo's other folders) is refused at the
// setting, and nothing is signed with it. The same folder outside any working tree is used.
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
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
    if (git) {
      expect(built.code).toBe(1);
      expect(built.stderr).toMatch(/rye\.config\.json:1:\d+ - error RYE9002: .*signingKeyDir.*git working tree/);
      expect(existsSync(join(app, "out", "manifest.json"))).toBe(false);
    } else {
      expect(built.code, built.stderr).toBe(0);
    }
  });
});
