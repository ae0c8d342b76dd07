import { describe, expect, test } from "vitest";
import { runRye, tempTree, testUserSpace } from "../helpers/cli.js";

const DIRECTIVE = `# Hi

\`\`\`xml
<directive name="hi" version="1.0.0">
  <metadata><description>Say hi.</description></metadata>
  <inputs>
    <input name="who" type="string" required="true">Who</input>
    <input name="times" type="integer" required="false" default="2">How often</input>
  </inputs>
</directive>
\`\`\`

Say hi to {input:who}, {input:times} times.
`;

const TEST_USER = testUserSpace();
const rye = (args: string[], cwd: string) => runRye(args, cwd, { USER_SPACE: TEST_USER });

const BROKEN = DIRECTIVE.replace("{input:times}", "{input:tims}");



describe("rye preview", () => {
  const dir = tempTree({ ".ai/directives/t/hi.md": DIRECTIVE, ".ai/directives/t/broken.md": BROKEN });

  test("prints the prompt as seed 004 lays it out, with defaults applied", async () => {
    const { code, stdout } = await rye(["preview", "t/hi", "--inputs", '{"who": "Ada"}'], dir);
    expect(code).toBe(0);
    expect(stdout).toBe('<directive name="hi">\n<description>Say hi.</description>\nSay hi to Ada, 2 times.\n</directive>\n');
  });

  test("prints the thread with --thread, and JSON with --json", async () => {
    const thread = await rye(["preview", "t/hi", "--inputs", '{"who": "Ada", "times": 1}', "--thread"], dir);
    expect(thread.code).toBe(0);
    expect(thread.stdout).toContain("── system ──\n");
    expect(thread.stdout).toContain("── user ──\n");
    expect(thread.stdout).toContain("Say hi to Ada, 1 times.");
    const json = await rye(["preview", "t/hi", "--inputs", '{"who": "Bo"}', "--json"], dir);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "success", id: "t/hi", prompt: expect.stringContaining("Say hi to Bo, 2 times.") });
  });

  test("a thread with knowledge in its context shows that knowledge's text", async () => {
    const withContext = DIRECTIVE.replace("<metadata><description>Say hi.</description>", "<metadata><description>Say hi.</description>\n    <context><system>t/manners</system></context>");
    const project = tempTree({
      ".ai/directives/t/hi.md": withContext,
      ".ai/knowledge/t/manners.md": "```yaml\nname: manners\ntitle: Manners\n```\n\nAlways say please.\n",
    });
    const thread = await rye(["preview", "t/hi", "--inputs", '{"who": "Ada"}', "--thread"], project);
    expect(thread.stderr).toBe("");
    expect(thread.code).toBe(0);
    expect(thread.stdout).toMatch(/── system ──\n[\s\S]*Always say please\.[\s\S]*── user ──/);
  });

  test("gives a run's validation payload for bad inputs, and exit 1", async () => {
    const { code, stdout } = await rye(["preview", "t/hi", "--inputs", '{"who": "Ada", "extra": 1}'], dir);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: "error", item_id: "t/hi" });
    expect(JSON.parse(stdout).error).toContain("extra");
  });

  test("shows the diagnostics of a directive that does not compile", async () => {
    const { code, stderr } = await rye(["preview", "t/broken", "--inputs", '{"who": "Ada"}'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain("RYE2001");
    expect(stderr).toContain("'t/broken' does not compile");
  });

  test("suggests the closest id for an unknown one; usage errors exit 2", async () => {
    const unknown = await rye(["preview", "t/hii"], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("did you mean 't/hi'?");
    expect((await rye(["preview"], dir)).code).toBe(2);
    expect((await rye(["preview", "t/hi", "--inputs", "{nope"], dir)).code).toBe(2);
  });
});
