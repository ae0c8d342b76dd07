// How a Vitest worker knows the rye-build/vite plugin feeds it: a token in the environment, made in
// the process the plugin ran in with the user space's secret. A checkout's `.env` loaded into the
// environment (`node --env-file=.env`) can set the variable, but cannot make the token: output is
// still refused. Worker threads (`--pool=threads`, `--pool=vmThreads`) accept the plugin's token as forked workers do.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, markerRan, node } from "./helpers.js";
import { NO_PLUGIN, PLUGIN, setUpVitestProject, VITEST, vitestProject } from "./vitest-project.js";


describe("the token that tells Vitest's workers the plugin verified what they evaluate", () => {
  const layout = vitestProject("rye-load-vitest-token-");
  const { project, home, marker, greet } = layout;

  beforeAll(() => {
    setUpVitestProject(layout);
    // What a pull request adds: the variable the plugin sets, for anything that loads .env.
    writeFileSync(join(project, ".env"), "RYE_VITE_PLUGIN_VERIFIES=1\n");
  }, 60_000);

  function vitest(config: string, tampered: boolean, nodeArgs: string[], vitestArgs: string[] = []) {
    writeFileSync(join(project, "vitest.config.mjs"), config);
    rmSync(marker, { force: true });
    const saved = readFileSync(greet);
    if (tampered) inject(greet, marker);
    try {
      const env = cleanEnv({ USER_SPACE: home, NODE_OPTIONS: "--import rye-build/register" });
      const r = node(project, env, ...nodeArgs, VITEST, "run", "--no-color", ...vitestArgs);
      return { ...r, all: r.stdout + r.stderr };
    } finally {
      writeFileSync(greet, saved);
    }
  }

  test("control: the .env is loaded (a worker sees the variable)", () => {
    writeFileSync(join(project, "t", "env.test.mjs"), `import { test, expect } from "vitest";\ntest("env", () => { expect(process.env.RYE_VITE_PLUGIN_VERIFIES).toBe("1"); });\n`);
    try {
      writeFileSync(join(project, "vitest.config.mjs"), `export default { test: { include: ["t/env.test.mjs"] } };\n`);
      const r = node(project, cleanEnv({ USER_SPACE: home }), "--env-file=.env", VITEST, "run", "--no-color");
      expect(r.status, r.stdout + r.stderr).toBe(0);
    } finally {
      rmSync(join(project, "t", "env.test.mjs"));
    }
  }, 120_000);

  test("the variable from a checkout's .env, without the plugin: a tampered module is refused and its payload never runs", () => {
    const r = vitest(NO_PLUGIN, true, ["--env-file=.env"]);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("is build output evaluated by a module runner");
    expect(r.all).toContain("RYE_VITE_PLUGIN_VERIFIES is set, but not by the rye-build/vite plugin");
    expect(markerRan(marker)).toBe(false);
  }, 120_000);

  // threads: worker threads of the plugin's process; vmThreads: each test file in a vm context of such a thread.
  test.each(["threads", "vmThreads"])("the plugin's token reaches --pool=%s: the untouched build runs", (pool) => {
    const r = vitest(PLUGIN, false, [], [`--pool=${pool}`]);
    expect(r.status, r.all).toBe(0);
    expect(r.all).toMatch(/1 passed/);
  }, 120_000);

  test.each(["threads", "vmThreads"])("with the plugin and --pool=%s, a tampered module is refused and its payload never runs", (pool) => {
    const r = vitest(PLUGIN, true, [], [`--pool=${pool}`]);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("Content modified since signing: examples/greet");
    expect(markerRan(marker)).toBe(false);
  }, 120_000);
});
