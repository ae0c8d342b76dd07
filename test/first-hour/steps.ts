// The commands of the first-hour test, each run as a new user types it, and the README's own blocks.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { blocksOf } from "../docs/code-blocks.js";
import { REPO } from "./install.js";

export interface Ran {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs `command args` in `cwd`; the run fails the test unless it exits 0 and prints something. */
export function step(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Ran {
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 90_000 });
  const ran = { stdout: r.stdout ?? "", stderr: r.stderr ?? "", status: r.status };
  const said = `${command} ${args.join(" ")}`;
  expect({ said, status: ran.status, stderr: ran.status === 0 ? "" : ran.stderr }).toEqual({ said, status: 0, stderr: "" });
  expect(`${ran.stdout}${ran.stderr}`.trim(), `${said} printed nothing`).not.toBe("");
  return ran;
}

/** Runs a shell block as bash does with -e and pipefail, under the same rules as `step`. */
export const shellStep = (text: string, cwd: string, env: NodeJS.ProcessEnv): Ran => step("bash", ["-e", "-o", "pipefail", "-c", text], cwd, env);

/** Runs a command that must fail; its output, for the caller to check. */
export function failingStep(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Ran {
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 90_000 });
  expect(r.status, `${command} ${args.join(" ")} should fail`).not.toBe(0);
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

const readme = blocksOf(join(REPO, "README.md"), "README.md");

/** The README's fenced block with attribute `key=value` (or the first of language `lang` whose text matches). */
export function readmeBlock(key: string, value: string): string {
  const block = readme.find((b) => b.attrs[key] === value);
  if (!block) throw new Error(`README.md has no block with ${key}=${value}`);
  return block.text;
}

/** The README's shell block holding `line`. */
export function readmeShell(line: RegExp): string {
  const block = readme.find((b) => b.lang === "sh" && line.test(b.text));
  if (!block) throw new Error(`README.md has no sh block matching ${line}`);
  return block.text;
}
