// A checkout without .git (an archive, a CI artifact, a Docker context) still carries the whole
// repository around a sub-project: a PATH entry anywhere above the project, up to the home folder
// or a top-level system folder, lies in the checkout and is dropped from a bundle run's PATH.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkoutAncestors } from "../../src/project/checkout-ancestors.js";
import { checkoutOf } from "../../src/bundle/checkout.js";
import { checkoutEnv } from "../../src/bundle/checkout-env.js";
import { cleanEnv, makeProject, rye, tempDir } from "./helpers.js";

const PYTHON = spawnSync("sh", ["-c", "command -v python3"], { encoding: "utf8" }).stdout.trim();

/**
 * A monorepo: `mono/packages/ui` holds a built project (out/bundle.mjs), `mono/packages/api` a sibling.
 * `.git` is absent, at the root, or planted (empty) in the sub-project, as an archive can carry it.
 */
function layout(git: "none" | "root" | "planted") {
  const base = tempDir("rye-nogit-");
  const mono = join(base, "mono");
  const ui = join(mono, "packages", "ui");
  for (const d of [join(ui, ".ai"), join(ui, "out"), join(mono, "node_modules", ".bin"), join(mono, "bin"), join(mono, "packages", "api", "node_modules", ".bin")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(ui, "out", "manifest.json"), "{}\n");
  writeFileSync(join(ui, "out", "bundle.mjs"), "\n");
  if (git === "root") mkdirSync(join(mono, ".git"));
  if (git === "planted") mkdirSync(join(ui, ".git"));
  return { base, mono, ui, bundle: join(ui, "out", "bundle.mjs") };
}

const entries = (mono: string) => ({ "root node_modules/.bin": join(mono, "node_modules", ".bin"), "an ancestor's bin/": join(mono, "bin"), "a sibling package's .bin": join(mono, "packages", "api", "node_modules", ".bin"), "/usr/bin": "/usr/bin" });
const dropped: Record<string, boolean> = { "root node_modules/.bin": true, "an ancestor's bin/": true, "a sibling package's .bin": true, "/usr/bin": false };

describe.each(["none", "root", "planted"] as const)("git: %s", (git) => {
  const l = layout(git);
  test.each(Object.keys(dropped))("PATH entry %s", (name) => {
    const entry = entries(l.mono)[name as keyof ReturnType<typeof entries>];
    const checkout = checkoutOf({ bundle: l.bundle, cwd: l.ui, env: {} });
    const kept = checkoutEnv({ PATH: entry }, checkout).env.PATH;
    expect(kept).toBe(dropped[name] ? "" : entry);
  });
});

describe("a working directory without .ai/ is checkout too", () => {
  test("a PATH entry under it or above it is dropped, whatever marks it", () => {
    const base = tempDir("rye-nogit-cwd-");
    const cwd = join(base, "repo", "app");
    // The bundle lies in a folder of its own, so only the working directory can make these checkout.
    const bundleDir = tempDir("rye-nogit-bundle-");
    for (const d of [join(cwd, "node_modules", ".bin"), join(base, "repo", "bin"), bundleDir]) mkdirSync(d, { recursive: true });
    writeFileSync(join(bundleDir, "bundle.mjs"), "\n");
    const checkout = checkoutOf({ bundle: join(bundleDir, "bundle.mjs"), cwd, env: {} });
    for (const entry of [join(cwd, "node_modules", ".bin"), join(base, "repo", "bin")]) expect(checkoutEnv({ PATH: entry }, checkout).env.PATH, entry).toBe("");
    expect(checkoutEnv({ PATH: "/usr/bin" }, checkout).env.PATH).toBe("/usr/bin");
  });
});

describe("where the walk up stops", () => {
  const l = layout("none");
  test("below a home folder that holds the project, and never at a top-level folder", () => {
    const home = join(l.base, "home");
    const proj = join(home, "work", "mono", "packages", "ui");
    mkdirSync(proj, { recursive: true });
    const up = checkoutAncestors(proj, home);
    expect(up).toEqual([join(home, "work", "mono", "packages"), join(home, "work", "mono"), join(home, "work")]);
    expect(checkoutAncestors(l.ui, null)).not.toContain(dirname(l.base).split("/").slice(0, 2).join("/"));
    expect(checkoutAncestors(l.ui, null).every((d) => d.split("/").length > 2)).toBe(true);
    expect(checkoutAncestors("/usr/lib/x", null)).toEqual([]);
    expect(checkoutAncestors("/usr/bin", null)).toEqual([]);
  });
});

describe.skipIf(!PYTHON)("a planted python3 at the monorepo root", () => {
  test("is dropped from PATH and never runs; the system one does", () => {
    const l = layout("none");
    const marker = join(l.base, "MARKER");
    const shim = join(l.mono, "node_modules", ".bin", "python3");
    writeFileSync(shim, `#!/bin/sh\necho ran >> '${marker}'\nexec '${PYTHON}' "$@"\n`);
    chmodSync(shim, 0o755);
    const path = [dirname(shim), dirname(PYTHON)].join(delimiter);
    const { env } = checkoutEnv({ PATH: path }, checkoutOf({ bundle: l.bundle, cwd: l.ui, env: {} }));
    spawnSync("python3", ["-c", "print(1)"], { cwd: l.ui, env, encoding: "utf8" });
    expect(env.PATH).toBe(dirname(PYTHON));
    expect(existsSync(marker)).toBe(false);
    // Control: the same PATH unfiltered runs the shim, so the payload is live.
    spawnSync("python3", ["-c", "print('ok')"], { cwd: l.ui, env: { PATH: path }, encoding: "utf8" });
    expect(existsSync(marker)).toBe(true);
  });
});

describe.skipIf(!PYTHON)("a bundle run in a sub-project of a checkout without .git (through the CLI)", () => {
  test("the monorepo root's node_modules/.bin/python3 is not the interpreter; with --trust-checkout it is", () => {
    const base = tempDir("rye-nogit-run-");
    const ui = makeProject(join(base, "mono", "packages", "ui"));
    // HOME in a folder of its own: the folders above a project without .git count as its checkout, and a bundle run refuses a HOME there.
    const home = tempDir("rye-nogit-run-home-");
    const env = cleanEnv({ USER_SPACE: home, HOME: home });
    expect(rye(ui, env, "bundle").status).toBe(0);
    const marker = join(base, "MARKER");
    const bin = join(base, "mono", "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "python3"), `#!/bin/sh\necho ran >> '${marker}'\nexec '${PYTHON}' "$@"\n`);
    chmodSync(join(bin, "python3"), 0o755);
    const runEnv = { ...env, PATH: [bin, env.PATH].join(delimiter), RYE_TRUSTED_KEYS: join(home, ".ai", "config", "keys", "signing", "public_key.pem") };
    const args = ["run", "out/bundle.mjs", "tool", "examples/word_count", "--params", '{"text": "a b c"}'];
    const r = rye(ui, runEnv, ...args);
    expect(r.stdout + r.stderr).toContain('"success"');
    expect(existsSync(marker)).toBe(false);
    // Control: the payload is live when the checkout is trusted to choose.
    rye(ui, runEnv, ...args, "--trust-checkout");
    expect(existsSync(marker)).toBe(true);
  });
});
