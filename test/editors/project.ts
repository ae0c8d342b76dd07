// A throwaway Rye project for the editor tests, with rye-build installed the way npm installs it
// (node_modules/rye-build and its bin link node_modules/.bin/rye-build), pointing at this checkout.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** A directive with an input it never uses: the server reports RYE2002 on it. */
const DIRECTIVE = `# hello

\`\`\`xml
<directive name="hello" version="1.0.0">
  <metadata><description>Says hello.</description></metadata>
  <inputs><input name="unused" type="string" required="false">Never used</input></inputs>
</directive>
\`\`\`

Say hello.
`;

export interface Project {
  root: string;
  /** The directive file (`.ai/directives/t/hello.md`). */
  directive: string;
  /** Where rye-build's bin link is, when installed. */
  bin: string | null;
}

/**
 * `install`: "here" puts rye-build in the project's node_modules, "parent" in the folder above the
 * project (an npm workspace hoists it there), "none" installs nothing.
 */
export function makeProject(install: "here" | "parent" | "none"): Project {
  const base = mkdtempSync(join(tmpdir(), "rye-editors-"));
  const root = join(base, "app");
  mkdirSync(join(root, ".ai", "directives", "t"), { recursive: true });
  const directive = join(root, ".ai", "directives", "t", "hello.md");
  writeFileSync(directive, DIRECTIVE);
  writeFileSync(join(root, "package.json"), `{ "name": "app", "private": true }\n`);
  if (install === "none") return { root, directive, bin: null };
  const modules = join(install === "here" ? root : base, "node_modules");
  mkdirSync(join(modules, ".bin"), { recursive: true });
  symlinkSync(REPO, join(modules, "rye-build"), "dir");
  const bin = join(modules, ".bin", "rye-build");
  symlinkSync("../rye-build/bin/rye.js", bin);
  return { root, directive, bin };
}

/** The environment servers run in: the project as user space, so the tester's home is not read. */
export const serverEnv = (root: string): NodeJS.ProcessEnv => ({ ...process.env, USER_SPACE: root });
