// docs/caching.md's Turborepo task and Nx target in a monorepo: two packages, each with its own
// `.ai/`, built by the real tools from the workspace root. A second run is a cache hit; output
// restored from the cache verifies against the builder's pinned key on another machine (and not
// without it); a change to one package's input misses the cache for that package only.
import { appendFileSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { outputBytes } from "../helpers/output-bytes.js";
import { bin, monorepo, PACKAGES, recipe, run, verifyPinned, type Monorepo } from "./monorepo.js";

const pkgDir = (m: Monorepo, pkg: string) => join(m.root, "packages", pkg);
const touchInput = (m: Monorepo, pkg: string) => appendFileSync(join(pkgDir(m, pkg), ".ai", "directives", pkg, "hello.md"), "\nAnd smile.\n");

describe("Turborepo in a two-package workspace", { timeout: 120_000 }, () => {
  let m: Monorepo;
  const turbo = (...args: string[]) => run(bin("turbo"), ["run", "rye:build", "--cache-dir=.turbo-cache", ...args], m.root, m.env);
  let first: { code: number | null; out: string };
  beforeAll(() => {
    m = monorepo("turbo", { "turbo.json": recipe("turbo") }, (pkg) => ({ "package.json": `${JSON.stringify({ name: pkg, version: "1.0.0", private: true, scripts: { "rye:build": "rye build" } }, null, 2)}\n` }));
    first = turbo();
  }, 180_000);

  test("the first run builds both packages (two misses)", () => {
    expect(first.code, first.out).toBe(0);
    for (const pkg of PACKAGES) expect(first.out).toMatch(new RegExp(`${pkg}:rye:build: cache miss`));
    for (const pkg of PACKAGES) expect(readFileSync(join(pkgDir(m, pkg), "out", "directives", pkg, "hello.js"), "utf8")).toContain(`from ${pkg}.`);
  });

  test("the second run is a full cache hit, and output deleted since is restored byte for byte", () => {
    const before = outputBytes(pkgDir(m, "alpha"));
    rmSync(join(pkgDir(m, "alpha"), "out"), { recursive: true });
    const second = turbo();
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain("FULL TURBO");
    expect(second.out).not.toContain("cache miss");
    expect(outputBytes(pkgDir(m, "alpha"))).toBe(before);
  });

  test("restored output verifies on another machine against the pinned builder key, and not without it", () => {
    const pinned = verifyPinned(m, "alpha");
    expect(pinned.code, pinned.out).toBe(0);
    expect(pinned.out).toMatch(/files verified/);
    expect(verifyPinned(m, "alpha", false).code).not.toBe(0);
  });

  test("a changed input misses for its package only", () => {
    touchInput(m, "beta");
    const third = turbo();
    expect(third.code, third.out).toBe(0);
    expect(third.out).toMatch(/beta:rye:build: cache miss/);
    expect(third.out).toMatch(/alpha:rye:build: cache hit/);
    expect(readFileSync(join(pkgDir(m, "beta"), "out", "directives", "beta", "hello.js"), "utf8")).toContain("And smile.");
  });
});

describe("Nx in a two-package workspace", { timeout: 120_000 }, () => {
  let m: Monorepo;
  const nx = () => run(bin("nx"), ["run-many", "-t", "rye-build", "--outputStyle=static"], m.root, m.env);
  let first: { code: number | null; out: string };
  beforeAll(() => {
    const target = JSON.parse(recipe("nx")) as Record<string, unknown>;
    m = monorepo("nx", { "nx.json": "{}\n" }, (pkg) => ({ "project.json": `${JSON.stringify({ name: pkg, ...target }, null, 2)}\n` }));
    first = nx();
  }, 180_000);

  test("the first run builds each package in its own folder", () => {
    expect(first.code, first.out).toBe(0);
    for (const pkg of PACKAGES) expect(readFileSync(join(pkgDir(m, pkg), "out", "directives", pkg, "hello.js"), "utf8")).toContain(`from ${pkg}.`);
  });

  test("the second run is a cache hit for both, and output deleted since is restored byte for byte", () => {
    const before = outputBytes(pkgDir(m, "alpha"));
    rmSync(join(pkgDir(m, "alpha"), "out"), { recursive: true });
    const second = nx();
    expect(second.code, second.out).toBe(0);
    expect(second.out).toMatch(/Nx read the output from the cache instead of running the command for 2 out of 2 tasks/);
    expect(outputBytes(pkgDir(m, "alpha"))).toBe(before);
  });

  test("restored output verifies on another machine against the pinned builder key, and not without it", () => {
    const pinned = verifyPinned(m, "alpha");
    expect(pinned.code, pinned.out).toBe(0);
    expect(verifyPinned(m, "alpha", false).code).not.toBe(0);
  });

  test("a changed input misses for its package only", () => {
    touchInput(m, "beta");
    const third = nx();
    expect(third.code, third.out).toBe(0);
    expect(third.out).toMatch(/for 1 out of 2 tasks/);
    expect(readFileSync(join(pkgDir(m, "beta"), "out", "directives", "beta", "hello.js"), "utf8")).toContain("And smile.");
  });
});
