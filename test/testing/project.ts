// A small project for the tests of `rye test`: one directive with required, optional and typed
// inputs and a knowledge item in its thread, and a knowledge item of its own.
import { runRye, tempTree, testUserSpace } from "../helpers/cli.js";

export const HI = `# Hi

\`\`\`xml
<directive name="hi" version="1.0.0">
  <metadata>
    <description>Say hi.</description>
    <model tier="fast" />
    <context><before>t/manners</before></context>
  </metadata>
  <inputs>
    <input name="who" type="string" required="true">Who</input>
    <input name="times" type="integer" required="false" default="2">How often</input>
    <input name="mood" type="string" required="false">A mood</input>
  </inputs>
</directive>
\`\`\`

Say hi to {input:who}, {input:times} times{input:mood|, calmly}.
`;

export const MANNERS = "```yaml\nname: manners\ntitle: Manners\nentry_type: reference\n```\n\nAlways say please.\n";

/** The project with `tests` (path under `.ai/tests/` → text) added. */
export function projectWith(tests: Record<string, string>, extra: Record<string, string> = {}): string {
  const files: Record<string, string> = { ".ai/directives/t/hi.md": HI, ".ai/knowledge/t/manners.md": MANNERS, ...extra };
  for (const [rel, text] of Object.entries(tests)) files[`.ai/tests/${rel}`] = text;
  return tempTree(files, "rye-test-proj-");
}

const USER = testUserSpace();

/** `rye test …` in `dir`, with a fixed clock unless the args set one. */
export function ryeTest(dir: string, ...args: string[]) {
  return runRye(["test", ...args], dir, { USER_SPACE: USER, PATH: process.env.PATH });
}

/** A one-case test file for t/hi. */
export const hiCase = (body: string, name = "a case") => `cases:\n  - name: ${name}\n${body.replace(/^/gm, "    ")}\n`;
