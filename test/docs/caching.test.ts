// docs/caching.md's Turborepo task and Nx target: their JSON parses, they cache the output folder, and
// their inputs are enough: a change outside them leaves the output byte for byte as it was, a change
// inside one changes it (so a cache keyed on them never serves stale output).
import { cpSync, mkdirSync, mkdtempSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { runRye } from "../helpers/cli.js";
import { outputBytes } from "../helpers/output-bytes.js";
import { blocksOf } from "./code-blocks.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const blocks = blocksOf(join(root, "docs", "caching.md"), "caching.md").filter((b) => b.attrs.cache);
const turbo = JSON.parse(blocks.find((b) => b.attrs.cache === "turbo")!.text).tasks["rye:build"] as { inputs: string[]; outputs: string[] };
const nx = JSON.parse(blocks.find((b) => b.attrs.cache === "nx")!.text).targets["rye-build"] as { inputs: (string | object)[]; outputs: string[] };

/** Whether a project-relative path matches one of the documented input globs (`dir/**`, `dir/**\/*`, or an exact path). */
function covered(path: string, globs: string[]): boolean {
  return globs.some((g) => {
    const p = g.replace(/^\{projectRoot\}\//, "").replace(/^\{workspaceRoot\}\//, "");
    if (p.endsWith("/**") || p.endsWith("/**/*")) return path.startsWith(p.slice(0, p.indexOf("/**") + 1));
    return path === p;
  });
}


describe("docs/caching.md", () => {
  const inputs = { turbo: turbo.inputs, nx: nx.inputs.filter((i): i is string => typeof i === "string") };

  test("both cache the output folder and read the sources, the config and the lock file", () => {
    expect(turbo.outputs).toEqual(["out/**"]);
    expect(nx.outputs).toEqual(["{projectRoot}/out"]);
    for (const globs of Object.values(inputs)) {
      for (const path of [".ai/directives/examples/greet.md", ".ai/knowledge/examples/style-guide.md", ".ai/tools/examples/word_count.py", "rye.config.json", "package.json", "package-lock.json"]) {
        expect(covered(path, globs), path).toBe(true);
      }
      expect(covered("README.md", globs)).toBe(false);
    }
    expect(nx.inputs).toEqual(expect.arrayContaining([{ env: "RYE_SIGNING_KEY_DIR" }, { env: "SOURCE_DATE_EPOCH" }, { env: "USER_SPACE" }]));
  });

  test("outside the inputs nothing changes the output; inside them a change does", async () => {
    const project = join(mkdtempSync(join(tmpdir(), "rye-cache-")), "project");
    cpSync(join(root, ".ai"), join(project, ".ai"), { recursive: true });
    const env = { USER_SPACE: join(project, "..", "user"), RYE_SIGNING_KEY_DIR: join(project, "..", "keys") };
    mkdirSync(env.USER_SPACE);
    expect((await runRye(["build"], project, env)).code).toBe(0);
    const first = outputBytes(project);
    // Not inputs: a README, application code, a stray file beside .ai/.
    for (const [path, text] of [["README.md", "# app\n"], ["src/app.ts", "export const x = 1;\n"], ["notes.txt", "todo\n"]] as const) {
      for (const globs of Object.values(inputs)) expect(covered(path, globs), path).toBe(false);
      mkdirSync(join(project, path, ".."), { recursive: true });
      writeFileSync(join(project, path), text);
    }
    expect((await runRye(["build"], project, env)).code).toBe(0);
    expect(outputBytes(project)).toBe(first);
    // An input: one directive's body.
    appendFileSync(join(project, ".ai", "directives", "examples", "greet.md"), "\nOne more line.\n");
    expect((await runRye(["build"], project, env)).code).toBe(0);
    expect(outputBytes(project)).not.toBe(first);
  });
});
