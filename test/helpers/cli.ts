// Running the CLI in-process for tests: its output captured, a user space of the tests' own, and
// project trees written from a map of files.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Io } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

/** A fresh user space, so a signing key generated on first use never lands in a real home. */
export const testUserSpace = (): string => mkdtempSync(join(tmpdir(), "rye-user-"));

/** Writes `files` (relative path → text) under `dir` and returns `dir`. */
export function writeTree(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/** The text of a directive with nothing but a name, a description and a one-step `body`. */
export const plainDirective = (name: string, body = "Do the thing.", description = `${name} for the tests.`): string => `# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0">
  <metadata>
    <description>${description}</description>
  </metadata>
</directive>
\`\`\`

<process>
  ${body}
</process>
`;

/** A new temporary folder holding `files`. */
export const tempTree = (files: Record<string, string>, prefix = "rye-proj-"): string => writeTree(mkdtempSync(join(tmpdir(), prefix)), files);

/** `rye <args>` run in `cwd` with `env` (default: only a test user space); exit code and output. */
export async function runRye(args: string[], cwd: string, env: NodeJS.ProcessEnv = { USER_SPACE: testUserSpace() }) {
  let stdout = "";
  let stderr = "";
  const stream = (add: (s: string) => void) => ({ write: (s: string) => (add(s), true) }) as unknown as Io["stdout"];
  const code = await main(args, { stdout: stream((s) => (stdout += s)), stderr: stream((s) => (stderr += s)), cwd, env });
  return { code, stdout, stderr };
}

const BIN = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));

/**
 * `node bin/rye.js <args>` as a real process (dist/, as installed): for commands that import build
 * output (`rye run tool`), which only a Node process verifies; inside vitest its module runner would
 * evaluate out/, and the verifying loader refuses that.
 */
export function runRyeProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1", ...env }, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

