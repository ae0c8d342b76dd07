// A built project that runs Vitest over one test importing its out/: the layout the Vitest load-path
// tests share (the marker a tampered module would write, the module they tamper).
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { outsideOf } from "../helpers/outside.js";
import { join } from "node:path";
import { expect } from "vitest";
import { cleanEnv, makeProject, REPO, rye, tempDir } from "./helpers.js";

export const VITEST = join(REPO, "node_modules", "vitest", "vitest.mjs");
export const NO_PLUGIN = `export default { test: { include: ["t/**/*.test.mjs"] } };\n`;
export const PLUGIN = `import { ryeVerify } from "rye-build/vite";\nexport default { plugins: [ryeVerify()], test: { include: ["t/**/*.test.mjs"] } };\n`;

export interface VitestProject {
  base: string;
  project: string;
  home: string;
  marker: string;
  greet: string;
}

/** The folders of a project under a fresh temporary folder (nothing built yet: see `setUpVitestProject`). */
export function vitestProject(prefix: string): VitestProject {
  const base = tempDir(prefix);
  const project = makeProject(join(base, "project"));
  return { base, project, home: join(outsideOf(base), "home"), marker: join(base, "PWNED"), greet: join(project, "out", "directives", "examples", "greet.js") };
}

/** Builds the project, links vitest and vite into it, and writes its one test, which imports out/. */
export function setUpVitestProject(p: VitestProject): void {
  const built = rye(p.project, cleanEnv({ USER_SPACE: p.home }), "build");
  expect(built.status, built.stderr).toBe(0);
  for (const dep of ["vitest", "vite"]) symlinkSync(join(REPO, "node_modules", dep), join(p.project, "node_modules", dep), "dir");
  mkdirSync(join(p.project, "t"));
  writeFileSync(join(p.project, "t", "greet.test.mjs"), `import { test, expect } from "vitest";
import { directives } from "../out/index.js";
test("greets", () => { expect(directives["examples/greet"].render({ name: "Ada" }).body).toContain("Ada"); });
`);
}
