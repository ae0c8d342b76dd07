import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

const TEST_USER = mkdtempSync(join(tmpdir(), "rye-user-"));

const DIRECTIVE = `# Hi

\`\`\`xml
<directive name="hi" version="1.0.0">
  <metadata><description>Say hi.</description></metadata>
  <inputs><input name="who" type="string" required="true">Who</input></inputs>
</directive>
\`\`\`

Say hi to {input:who} from {env:SENDER:us}.
`;

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "rye-config-cli-"));
  for (const [rel, text] of Object.entries({ ".ai/directives/t/hi.md": DIRECTIVE, ...files })) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

async function rye(args: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  const stream = (add: (s: string) => void) => ({ write: (s: string) => (add(s), true) }) as unknown as Io["stdout"];
  const code = await main(args, { stdout: stream((s) => (stdout += s)), stderr: stream((s) => (stderr += s)), cwd, env: { USER_SPACE: TEST_USER } });
  return { code, stdout, stderr };
}

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
