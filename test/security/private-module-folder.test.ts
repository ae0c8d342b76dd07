// `rye preview` and `rye test` evaluate freshly compiled modules from a private folder under the
// temporary folder. Whatever lies above that folder (a package.json or node_modules another account
// planted in /tmp) must not change how those modules load: each row plants one in TMPDIR and the
// commands must still succeed, with the planted code's marker absent.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { makeProject, markerRan, rye, tempDir } from "./helpers.js";

const PLANTS: Record<string, (tmp: string, marker: string) => void> = {
  'a package.json {"type": "commonjs"}': (tmp) => writeFileSync(join(tmp, "package.json"), '{"type":"commonjs"}'),
  "a package.json that is not JSON": (tmp) => writeFileSync(join(tmp, "package.json"), "{"),
  "a package.json folder": (tmp) => mkdirSync(join(tmp, "package.json")),
  'a package.json with "imports" and "exports"': (tmp) => writeFileSync(join(tmp, "package.json"), JSON.stringify({ type: "commonjs", imports: { "#x": "./evil.js" }, exports: "./evil.js", main: "./evil.js" })),
  "a node_modules/execa that writes a marker": (tmp, marker) => {
    mkdirSync(join(tmp, "node_modules", "execa"), { recursive: true });
    writeFileSync(join(tmp, "node_modules", "execa", "package.json"), '{"name":"execa","type":"module","main":"index.js"}');
    writeFileSync(join(tmp, "node_modules", "execa", "index.js"), `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport const execa = () => { throw new Error("planted"); };\n`);
  },
};

let project: string;
let user: string;

beforeAll(() => {
  project = makeProject(join(tempDir("rye-pmf-"), "proj"));
  user = join(tempDir("rye-pmf-user-"), "user");
});

describe("the private module folder of preview and test takes nothing from the folders above it", () => {
  test.each(Object.keys(PLANTS))("%s in TMPDIR: rye preview and rye test succeed, no marker", (name) => {
    const tmp = tempDir("rye-pmf-tmp-");
    const marker = join(tempDir("rye-pmf-marker-"), "PWNED");
    PLANTS[name]!(tmp, marker);
    const env = { PATH: process.env.PATH ?? "", USER_SPACE: user, TMPDIR: tmp, NO_COLOR: "1" };
    const preview = rye(project, env, "preview", "examples/greet", "--inputs", '{"name": "Ada"}');
    expect(preview.status, preview.stderr).toBe(0);
    expect(preview.stdout).toContain("Ada");
    const tested = rye(project, env, "test");
    expect(tested.status, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/passed/);
    expect(markerRan(marker)).toBe(false);
  }, 120_000);
});
