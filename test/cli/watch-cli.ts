// Runs `rye build --watch` in this process as the CLI would, and a one-shot `rye build --json`
// beside it, for the watch tests.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { outsideOf } from "../helpers/outside.js";

export function capture() {
  let text = "";
  return { stream: { write: (s: string) => ((text += s), true), isTTY: false } as unknown as Io["stdout"], text: () => text };
}

/** An environment that keeps keys and the user space out of the watched trees and out of home. */
export function testEnv(): NodeJS.ProcessEnv {
  const base = mkdtempSync(join(tmpdir(), "rye-watch-env-"));
  mkdirSync(join(outsideOf(base), "user"));
  return { USER_SPACE: join(outsideOf(base), "user"), RYE_SIGNING_KEY_DIR: join(base, "keys") };
}

export { writeTree } from "../helpers/cli.js";

export async function rye(cwd: string, env: NodeJS.ProcessEnv, args: string[]) {
  const out = capture();
  const err = capture();
  const code = await main(args, { stdout: out.stream, stderr: err.stream, cwd, env });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** `rye build --json` of a fresh copy of the project's .ai/: no cache, no earlier output. */
export async function oneShot(project: string, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  return (await oneShotWithOutput(project, env)).report;
}

/** As `oneShot`, and every file the one-shot build wrote (null when it wrote nothing). */
export async function oneShotWithOutput(project: string, env: NodeJS.ProcessEnv): Promise<{ report: Record<string, unknown>; out: Record<string, string> | null }> {
  const copy = mkdtempSync(join(tmpdir(), "rye-oneshot-"));
  cpSync(join(project, ".ai"), join(copy, ".ai"), { recursive: true });
  const r = await rye(copy, env, ["build", "--json"]);
  return { report: JSON.parse(r.stdout) as Record<string, unknown>, out: existsSync(join(copy, "out")) ? outputTree(join(copy, "out")) : null };
}

/** Every file of an output folder but the writer's own work folder, by relative path. */
export function outputTree(out: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const e of readdirSync(out, { recursive: true, withFileTypes: true })) {
    const rel = join(e.parentPath, e.name).slice(out.length + 1);
    if (e.isFile() && !rel.startsWith(".rye")) files[rel] = readFileSync(join(out, rel), "utf8");
  }
  return files;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `rye build --watch [args]` with the project as working directory; stopped by the SIGINT the CLI
 * listens for (emitted in this process only, no signal is sent).
 */
export function startWatch(project: string, env: NodeJS.ProcessEnv, args: string[] = []) {
  const out = capture();
  const err = capture();
  const exit = main(["build", "--watch", ...args], { stdout: out.stream, stderr: err.stream, cwd: project, env });
  const lines = () => out.text().split("\n").filter((l) => l !== "");
  return {
    lines,
    stderr: () => err.text(),
    /** Waits for a cycle after the `seen`th, then until no other follows for `quietMs`; returns the count. */
    async settle(seen: number, quietMs = 150, timeoutMs = 15_000): Promise<number> {
      const until = Date.now() + timeoutMs;
      while (lines().length <= seen) {
        if (Date.now() > until) throw new Error(`no watch cycle within ${timeoutMs} ms; stdout:\n${out.text()}\nstderr:\n${err.text()}`);
        await sleep(10);
      }
      for (let n = lines().length; ; n = lines().length) {
        await sleep(quietMs);
        if (lines().length === n) return n;
      }
    },
    async stop(): Promise<number> {
      process.emit("SIGINT");
      return exit;
    },
  };
}
