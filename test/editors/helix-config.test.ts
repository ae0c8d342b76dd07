// editors/helix/languages.toml starts the project's own rye-build (here or in a folder above, as
// Node finds packages) and nothing else: run exactly its command and args, as Helix would.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, test } from "vitest";
import { handshake } from "./lsp-handshake.js";
import { makeProject, REPO, serverEnv } from "./project.js";

const config = parse(readFileSync(join(REPO, "editors/helix/languages.toml"), "utf8")) as {
  "language-server": { rye: { command: string; args: string[] } };
  language: { name: string; "language-servers": string[]; roots?: string[] }[];
};
const { command, args } = config["language-server"].rye;

describe("Helix: languages.toml", () => {
  test("markdown and yaml both use the rye server, rooted at the folder holding .ai", () => {
    for (const name of ["markdown", "yaml"]) {
      const lang = config.language.find((l) => l.name === name);
      expect(lang?.["language-servers"]).toContain("rye");
      expect(lang?.roots).toEqual([".ai"]);
    }
  });

  // Helix starts the server in the workspace root; from a folder inside it the script walks up.
  test.each([
    ["installed in the project, started at its root", "here", ""],
    ["installed in the project, started in a subfolder", "here", ".ai/directives"],
    ["hoisted to the folder above (a workspace)", "parent", ""],
  ] as const)("%s: initialize is answered and the directive's diagnostics arrive", async (_, install, sub) => {
    const p = makeProject(install);
    const answer = await handshake(command, args, join(p.root, sub), p.root, p.directive, serverEnv(p.root));
    expect(answer.serverName).toBe("rye");
    expect(answer.hasCompletion).toBe(true);
    expect(answer.codes).toContain("RYE2002");
  }, 60_000);

  test("without an install nothing runs: it exits at once and says how to install", () => {
    const p = makeProject("none");
    const started = Date.now();
    const run = spawnSync(command, args, { cwd: p.root, env: serverEnv(p.root), input: "", encoding: "utf8", timeout: 10_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("npm install --save-dev rye-build");
    expect(run.stdout).toBe("");
    // No registry look-up (npx --no-install waits on the network for a missing package).
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
