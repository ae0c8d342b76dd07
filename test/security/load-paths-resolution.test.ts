// What a signed module's bare import loads is decided by files no load hook sees: a `node_modules`
// folder and `package.json` files on the lookup from the module's folder upward. Emitted code imports
// one package by bare name (execa, from runtime/agents/launch-agent.js and runtime/exec/run-process.js).
// Each plant steers that import to a payload; each row is a way of loading the module (the same rows
// as load-paths.test.ts). The untouched build loads on every row; with a plant, no row runs the
// payload: a plant inside the output folder refuses the whole folder, and one above it (a checkout's
// node_modules) is never consulted by import, and is refused by require(), whose linker Node runs alone.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, makeProject, markerRan, node, payload, REPO, rye, tempDir } from "./helpers.js";
import { loadPathRows } from "./load-path-rows.js";
import { outsideOf } from "../helpers/outside.js";

const ENTRY = "./out/runtime/agents/launch-agent.js";
// The rows whose app loads the project's own out/ (the dependency rows load another package's build).
const ROWS = Object.entries(loadPathRows(ENTRY, "typeof m.buildArgv")).filter(([name, row]) => row.target === "out" && !name.includes("one output module directly"));

describe("a planted module resolution file never decides what a signed module's import loads", () => {
  const base = tempDir("rye-load-resolution-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const execa = join(project, "node_modules", "execa");
  const fake = (main: string) => JSON.stringify({ name: "execa", version: "9.9.9", main });
  // The payload provides the export the runtime imports, so linking succeeds and it runs.
  const esm = `${payload(marker)}export const execa = () => {};\n`;
  const cjs = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "payload ran");\nexports.execa = () => {};\n`;

  /** Each plant as the files it writes (paths from the project root); `inside` when it lies in out/. */
  const PLANTS: Record<string, { files: Record<string, string>; inside: boolean }> = {
    "out/node_modules/execa whose main leaves the package for a payload in the checkout": {
      files: { "out/node_modules/execa/package.json": fake("../../../payload.mjs"), "payload.mjs": esm },
      inside: true,
    },
    "out/node_modules/execa holding the payload itself": {
      files: { "out/node_modules/execa/package.json": fake("index.mjs"), "out/node_modules/execa/index.mjs": esm },
      inside: true,
    },
    "a nearer out/runtime/node_modules/execa (no package.json, an index.js)": {
      files: { "out/runtime/node_modules/execa/index.js": cjs },
      inside: true,
    },
    "the checkout's node_modules/execa, above the output, whose main is the payload": {
      files: { "node_modules/execa/package.json": fake("../../payload.mjs"), "payload.mjs": esm },
      inside: false,
    },
  };

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
  }, 60_000);

  /** The project as an install leaves it (execa beside rye-build), then `plant` over it; returns the undo. */
  function planted(plant: string | null): () => void {
    rmSync(execa, { recursive: true, force: true });
    rmSync(marker, { force: true });
    const files = plant === null ? {} : PLANTS[plant]!.files;
    if (!Object.keys(files).some((f) => f.startsWith("node_modules/execa/"))) symlinkSync(join(REPO, "node_modules", "execa"), execa, "dir");
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(project, file, ".."), { recursive: true });
      writeFileSync(join(project, file), text);
    }
    return () => {
      for (const dir of ["out/node_modules", "out/runtime/node_modules", "node_modules/execa", "payload.mjs"]) rmSync(join(project, dir), { recursive: true, force: true });
    };
  }

  function run(name: string, plant: string | null, register = true) {
    const row = Object.fromEntries(ROWS)[name]!;
    for (const [file, text] of Object.entries(row.files)) writeFileSync(join(project, file), text);
    const undo = planted(plant);
    try {
      return node(project, env, ...(register ? ["--import", "rye-build/register"] : []), ...row.args);
    } finally {
      undo();
    }
  }

  test.each(Object.keys(PLANTS))("control: with nothing verifying (plain node), %s runs the payload", (plant) => {
    run("static import", plant, false);
    expect(markerRan(marker)).toBe(true);
  });

  // A `-r` preload has no import.meta.resolve, and CommonJS resolution cannot follow execa's own
  // import-only dependencies: that row fails closed on the untouched build too, so only the plants are run there.
  const LOADING = ROWS.map(([name]) => name).filter((name) => !name.startsWith("--require preload"));
  test.each(LOADING)("%s: the untouched build loads its runtime package", (name) => {
    const r = run(name, null);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("function\n");
  }, 60_000);

  const cases = ROWS.flatMap(([name]) => Object.keys(PLANTS).map((plant) => [name, plant] as const));
  test.each(cases)("%s, with %s: the payload never runs", (name, plant) => {
    const r = run(name, plant);
    expect(markerRan(marker)).toBe(false);
    if (PLANTS[plant]!.inside) {
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/IntegrityError/);
      expect(r.stderr).toContain("module resolution files its signed manifest does not record");
    } else if (r.status === 0) {
      // import resolves the runtime package from rye-build's install, past the checkout's.
      expect(r.stdout).toBe("function\n");
    } else {
      // require() cannot choose what Node's linker loads: it refuses when that is not rye-build's own.
      expect(r.stderr).toMatch(/imports execa: under require\(\), Node resolves it from the output module itself/);
    }
  }, 60_000);
});
