// Every `sh` block of the README and docs/ runs, as written, in a scratch copy of the example
// project: `npx rye` is this checkout's CLI, `~` a scratch home. A block must exit 0 and print
// something; one that cannot run here says why in its info string (```sh skip=why).
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { blocksOf, codeBlocks, type CodeBlock } from "./code-blocks.js";
import { outsideOf } from "../helpers/outside.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const all = [...blocksOf(join(root, "README.md"), "README.md"), ...codeBlocks(join(root, "docs")).map((b) => ({ ...b, file: `docs/${b.file}` }))];
const shell = all.filter((b) => b.lang === "sh" || b.lang === "bash");
const files = [...new Set(shell.map((b) => b.file))];

/** A scratch project (the example .ai/), home and PATH where `npx rye-build …` runs this checkout's CLI. */
function scratch(): { cwd: string; env: NodeJS.ProcessEnv } {
  const base = mkdtempSync(join(tmpdir(), "rye-docs-sh-"));
  const cwd = join(base, "project");
  const home = join(outsideOf(base), "home");
  const bin = join(base, "bin");
  cpSync(join(root, ".ai"), join(cwd, ".ai"), { recursive: true });
  mkdirSync(home);
  mkdirSync(bin);
  const npx = join(bin, "npx");
  // `npx rye-build …` (and `npx --no-install rye-build …`, `npx rye …` as a local install answers it) runs this checkout's CLI.
  writeFileSync(npx, `#!/bin/sh\n[ "$1" = --no-install ] && shift\nif [ "$1" = rye ] || [ "$1" = rye-build ]; then shift; exec "${process.execPath}" "${join(root, "bin", "rye.js")}" "$@"; fi\necho "npx $1 is not available to the docs tests" >&2; exit 127\n`);
  chmodSync(npx, 0o755);
  return { cwd, env: { PATH: `${bin}:${process.env.PATH}`, HOME: home, USER_SPACE: home, NO_COLOR: "1" } };
}

describe.each(files)("%s: shell blocks", (file) => {
  const blocks = shell.filter((b) => b.file === file);
  const place = scratch();
  for (const block of blocks) {
    const name = `line ${block.line}: ${block.text.split("\n").find((l) => l.trim() && !l.startsWith("#"))?.trim().slice(0, 60)}`;
    if (block.attrs.skip) {
      test.skip(`${name} (not run: ${block.attrs.skip.replace(/-/g, " ").replace(/;/g, "; ")})`, () => {});
      continue;
    }
    test(name, () => run(block, place), 120_000);
  }
});

function run(block: CodeBlock, place: { cwd: string; env: NodeJS.ProcessEnv }): void {
  const r = spawnSync("bash", ["-e", "-o", "pipefail", "-c", block.text], { cwd: place.cwd, env: place.env, encoding: "utf8", timeout: 110_000 });
  expect({ status: r.status, stderr: r.status === 0 ? "" : r.stderr }).toEqual({ status: 0, stderr: "" });
  expect(`${r.stdout}${r.stderr}`.trim()).not.toBe("");
}
