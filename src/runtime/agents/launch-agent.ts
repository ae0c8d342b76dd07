// Launches an agent CLI from a command template parsed at build time: argv built from parts,
// never a shell, so each placeholder value is exactly one argument (or part of one).
import { accessSync, constants as fsConstants, rmSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { execa } from "execa";
import { argvProblem, spawnFailureReason } from "../exec/check-argv.js";
import { argumentPositions, leadingPlaceholder, splicedValueProblem, type ArgTemplate } from "./argument-positions.js";
import { forwardSignals, startWatchdog, type ForwardedSignal } from "./forward-signals.js";
import { isoDate } from "./render-template.js";
import { roleFolder, sweepRoleFiles, writeRoleFile } from "./role-files.js";

export type { ArgTemplate } from "./argument-positions.js";

/** A command parsed at build time: `NAME=value` prefixes as env entries, then argv. */
export interface CommandTemplate {
  env: [name: string, value: ArgTemplate][];
  argv: ArgTemplate[];
}

export interface LaunchValues {
  bin: string;
  model: string;
  prompt: string;
  /** The system message; written to a private temp file when the command uses {role_file}. */
  role: string;
}

export interface LaunchOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Capture output instead of inheriting the terminal. */
  capture?: boolean;
  timeoutMs?: number;
  /** Checks the program found for {bin} before anything is written or run; returns why it may not run, or null. */
  checkProgram?: (path: string) => string | null;
}

/** How an agent run ended. */
export interface AgentRun {
  exitCode: number | undefined;
  /** The signal that ended the agent, if one did. */
  signal: string | undefined;
  /** Captured output (with `capture`). */
  stdout: unknown;
  stderr: unknown;
  /** The signal rye received and forwarded to the agent while it ran. */
  forwardedSignal: ForwardedSignal | null;
}

/** A launch refused before anything ran; the message is one line for the user. */
export class AgentLaunchError extends Error {}

const expandTilde = (p: string) => (p === "~" ? homedir() : p.startsWith("~/") ? join(homedir(), p.slice(2)) : p);
const CONTROL = /[\u0000-\u001f\u007f]/;
const start = (v: string) => JSON.stringify(v.length > 24 ? `${v.slice(0, 24)}…` : v);

/** `{bin}` and `{model}` name things: no control characters, no leading `-`. */
function checkName(name: "bin" | "model", value: string): void {
  if (CONTROL.test(value)) throw new AgentLaunchError(`{${name}} ${start(value)} holds a control character; agent ${name === "bin" ? "binaries" : "models"} are plain names`);
  if (value.startsWith("-")) throw new AgentLaunchError(`{${name}} ${start(value)} starts with '-', so the agent would read it as an option; refused`);
}

/**
 * The argv and environment a template gives for `values` (role_file must already exist). Refuses a
 * value that would become an option: a word that starts with a placeholder, stands as a positional
 * argument (not after `--`, not after a literal option) and would begin with `-`.
 */
export function buildArgv(t: CommandTemplate, values: Readonly<Record<string, string>>): { file: string; args: string[]; env: Record<string, string> } {
  const value = (ph: string) => (Object.hasOwn(values, ph) ? values[ph]! : `{${ph}}`);
  const fill = (parts: ArgTemplate) => parts.map((p) => (typeof p === "string" ? p : value(p.ph))).join("");
  for (const name of ["bin", "model"] as const) if (Object.hasOwn(values, name)) checkName(name, values[name]!);
  const positions = argumentPositions(t.argv);
  const spliced = splicedValueProblem(t.argv, values);
  if (spliced) throw new AgentLaunchError(spliced);
  const argv = t.argv.map(fill);
  argv.forEach((word, i) => {
    const ph = leadingPlaceholder(t.argv[i]!);
    if (ph === null || !word.startsWith("-") || positions[i] === "after_double_dash" || positions[i] === "option_value") return;
    const where = i === 0 ? "the command" : `argument ${i}`;
    throw new AgentLaunchError(
      `{${ph}} would start ${where} with '-' (${start(word)}), and the agent would read it as an option; refused. Put {${ph}} after -- or after an option that takes it (-p {${ph}}) in the command template`,
    );
  });
  const env: Record<string, string> = {};
  for (const [k, v] of t.env) Object.defineProperty(env, k, { value: fill(v), enumerable: true, writable: true, configurable: true });
  const [file, ...args] = argv;
  return { file: expandTilde(file!), args, env };
}

/** Finds an agent binary the way the OS would, so a missing one is named instead of failing silently. */
export function findBinary(file: string, path: string | undefined): string | null {
  const executable = (p: string) => {
    try {
      accessSync(p, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (file.includes("/")) return executable(file) ? file : null;
  for (const dir of (path ?? "").split(delimiter)) if (dir && executable(join(dir, file))) return join(dir, file);
  return null;
}

/** Argument i of the built argv, named by the placeholders it was filled from. */
function argName(t: CommandTemplate, i: number): string {
  const phs = (t.argv[i + 1] ?? []).filter((p) => typeof p !== "string").map((p) => `{${(p as { ph: string }).ph}}`);
  return `argument ${i + 1}${phs.length ? ` (${phs.join(", ")})` : ""}`;
}

/**
 * Runs the agent and resolves to its result plus `forwardedSignal`, the signal rye received and forwarded
 * (SIGINT, SIGTERM, SIGHUP) if any. A {role_file} lives in a private folder and is removed on every
 * exit: normally, on a forwarded signal, and — by a watchdog and the next run's sweep — after SIGKILL.
 */
export async function launchAgent(t: CommandTemplate, v: LaunchValues, options: LaunchOptions = {}): Promise<AgentRun> {
  const usesRoleFile = [...t.argv, ...t.env.map((e) => e[1])].some((parts) => parts.some((p) => typeof p !== "string" && p.ph === "role_file"));
  const env = { ...(options.env ?? process.env) };
  const values = { bin: v.bin, model: v.model, prompt: v.prompt, role: v.role, role_file: usesRoleFile ? "/role-file" : "", date: isoDate() };
  // Everything that can be checked is checked before a role file exists.
  const probe = buildArgv(t, values);
  const problem = argvProblem(probe.file, probe.args, { ...env, ...probe.env }, {
    name: (i) => argName(t, i),
    hint: usesRoleFile ? "the role travels in {role_file}; pass long text in a file" : "pass the role through {role_file} instead of {role}",
  });
  if (problem) throw new AgentLaunchError(problem);
  const program = findBinary(probe.file, { ...env, ...probe.env }.PATH);
  if (program === null) {
    throw new AgentLaunchError(`agent binary '${probe.file}' not found${probe.file.includes("/") ? " or not executable" : " on PATH"}`);
  }
  const refusal = options.checkProgram?.(program);
  if (refusal) throw new AgentLaunchError(refusal);
  let roleFile = "";
  if (usesRoleFile) {
    const dir = roleFolder();
    sweepRoleFiles(dir);
    roleFile = writeRoleFile(v.role, dir);
  }
  const { file, args, env: own } = buildArgv(t, { ...values, role_file: roleFile });
  const group = options.capture === true || !process.stdin.isTTY;
  let forwarding: ReturnType<typeof forwardSignals> | undefined;
  let stopWatchdog = () => {};
  try {
    const child = execa(file, args, {
      cwd: options.cwd,
      env: { ...env, ...own },
      extendEnv: false,
      shell: false,
      reject: false,
      // Its own process group when no terminal needs it in the foreground: signals reach all of it.
      detached: group && process.platform !== "win32",
      stdio: options.capture ? "pipe" : "inherit",
      timeout: options.timeoutMs,
    });
    if (child.pid !== undefined) {
      forwarding = forwardSignals(child.pid, group && process.platform !== "win32");
      stopWatchdog = startWatchdog(child.pid, group, roleFile);
    }
    const result = await child;
    if (result.failed && result.exitCode === undefined && !result.signal) throw new AgentLaunchError(`cannot start agent '${file}': ${spawnFailureReason(file, result)}`);
    return { exitCode: result.exitCode, signal: result.signal, stdout: result.stdout, stderr: result.stderr, forwardedSignal: forwarding?.received() ?? null };
  } finally {
    forwarding?.stop();
    stopWatchdog();
    if (roleFile) rmSync(roleFile, { force: true });
  }
}
