// Vitest runs a test file's imports through Vite's module runner: it reads each module through the
// Vite server and evaluates it with node:vm, past Node's loader hooks. Under
// NODE_OPTIONS="--import rye-build/register" without the rye-build/vite plugin in the config, output
// evaluated that way is refused (nothing verified it); with the plugin, it is verified and runs, and
// a tampered module is refused. Each row runs a real Vitest in a temporary project.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, markerRan, node } from "./helpers.js";
import { NO_PLUGIN, PLUGIN, setUpVitestProject, VITEST, vitestProject } from "./vitest-project.js";

const CONFIGS: Record<string, string> = { "no plugin in the config": NO_PLUGIN, "ryeVerify() in the config": PLUGIN };

describe("Vitest (Vite's module runner) evaluating build output", () => {
  const layout = vitestProject("rye-load-vitest-");
  const { project, home, marker, greet } = layout;

  beforeAll(() => {
    setUpVitestProject(layout);
  }, 60_000);

  function vitest(config: string, register: boolean, tampered: boolean) {
    writeFileSync(join(project, "vitest.config.mjs"), CONFIGS[config]!);
    rmSync(marker, { force: true });
    const saved = readFileSync(greet);
    if (tampered) inject(greet, marker);
    try {
      const env = cleanEnv({ USER_SPACE: home, ...(register ? { NODE_OPTIONS: "--import rye-build/register" } : {}) });
      const r = node(project, env, VITEST, "run", "--no-color");
      return { ...r, all: r.stdout + r.stderr };
    } finally {
      writeFileSync(greet, saved);
    }
  }

  test("control: with nothing verifying, Vitest runs the tampered module's payload", () => {
    vitest("no plugin in the config", false, true);
    expect(markerRan(marker)).toBe(true);
  }, 120_000);

  test("the loader without the plugin: the untouched build is refused, naming the fix, not run unverified", () => {
    const r = vitest("no plugin in the config", true, false);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("evaluated by a module runner");
    expect(r.all).toContain("add ryeVerify() from rye-build/vite");
  }, 120_000);

  test("the loader without the plugin: a tampered module is refused and its payload never runs", () => {
    const r = vitest("no plugin in the config", true, true);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("evaluated by a module runner");
    expect(markerRan(marker)).toBe(false);
  }, 120_000);

  test("the loader with the plugin: the untouched build runs and the test passes", () => {
    const r = vitest("ryeVerify() in the config", true, false);
    expect(r.status, r.all).toBe(0);
    expect(r.all).toMatch(/1 passed/);
  }, 120_000);

  test("the loader with the plugin: a tampered module is refused and its payload never runs", () => {
    const r = vitest("ryeVerify() in the config", true, true);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("Content modified since signing: examples/greet");
    expect(markerRan(marker)).toBe(false);
  }, 120_000);
});
