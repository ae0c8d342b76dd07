// The runnable examples of docs/api.md (```js run) run as written, with `rye-build` resolved to this
// checkout, in a scratch copy of the example project.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { codeBlocks } from "./code-blocks.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const examples = codeBlocks(join(root, "docs")).filter((b) => b.lang === "js" && b.attrs.run);

describe("docs: runnable API examples", () => {
  test("there are some", () => expect(examples.length).toBeGreaterThan(0));
  test.each(examples.map((b) => [`${b.file}:${b.line}`, b] as const))("%s runs and prints", (_name, block) => {
    const dir = mkdtempSync(join(tmpdir(), "rye-api-"));
    cpSync(join(root, ".ai"), join(dir, ".ai"), { recursive: true });
    const file = join(dir, "example.mjs");
    writeFileSync(file, block.text.replaceAll('from "rye-build"', `from ${JSON.stringify(pathToFileURL(join(root, "dist", "index.js")).href)}`));
    const r = spawnSync(process.execPath, [file], { cwd: dir, env: { ...process.env, USER_SPACE: mkdtempSync(join(tmpdir(), "rye-user-")) }, encoding: "utf8" });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
    expect(r.stdout.trim()).not.toBe("");
  });
});
