import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runRye, tempTree, testUserSpace } from "../helpers/cli.js";

const TEST_USER = testUserSpace();
const rye = (args: string[], cwd: string) => runRye(args, cwd, { USER_SPACE: TEST_USER });
const project = (files: Record<string, string>) => tempTree({ ".ai/directives/t/hi.md": DIRECTIVE, ...files });

const DIRECTIVE = `# Hi

\`\`\`xml
<directive name="hi" version="1.0.0">
  <metadata><description>Say hi.</description></metadata>
  <inputs><input name="who" type="string" required="true">Who</input></inputs>
</directive>
\`\`\`

Say hi to {input:who} from {env:SENDER:us}.
`;



describe("rye.config.json in rye build", () => {
  test("sets the output folder; --out overrides it", async () => {
    const dir = project({ "rye.config.json": '{ "out": "build/rye" }' });
    expect((await rye(["build"], dir)).code).toBe(0);
    expect(existsSync(join(dir, "build", "rye", "directives", "t", "hi.js"))).toBe(true);
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect((await rye(["build", "--out", "elsewhere"], dir)).code).toBe(0);
    expect(existsSync(join(dir, "elsewhere", "directives", "t", "hi.js"))).toBe(true);
  });

  test("\"rye\" in package.json works the same", async () => {
    const dir = project({ "package.json": JSON.stringify({ name: "x", rye: { out: "gen" } }) });
    expect((await rye(["build"], dir)).code).toBe(0);
    expect(existsSync(join(dir, "gen", "index.js"))).toBe(true);
  });

  test("an unknown key is a located error and nothing is built", async () => {
    const dir = project({ "rye.config.json": '{\n  "outDir": "x"\n}\n' });
    const { code, stderr } = await rye(["build"], dir);
    expect(code).toBe(1);
    expect(stderr).toContain("rye.config.json:2:3 - error RYE9001: Unknown setting 'outDir'");
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect(existsSync(join(dir, "x"))).toBe(false);
  });

  test("info diagnostics print only with --verbose or \"verbose\": true", async () => {
    const quiet = await rye(["build"], project({}));
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain("RYE2010");
    expect((await rye(["build", "--verbose"], project({}))).stderr).toContain("info RYE2010");
    expect((await rye(["build"], project({ "rye.config.json": '{"verbose": true}' }))).stderr).toContain("info RYE2010");
    expect(JSON.parse((await rye(["build", "--json"], project({}))).stdout).diagnostics.map((d: { code: string }) => d.code)).toContain("RYE2010");
  });
});
