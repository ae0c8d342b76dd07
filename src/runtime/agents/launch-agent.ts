// Launches an agent CLI from a command template parsed at build time: argv built from parts,
// never a shell, so each placeholder value is exactly one argument (or part of one).
import { randomBytes } from "node:crypto";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { isoDate } from "./render-template.js";

/** One argument: literal strings and placeholders, concatenated. */
export type ArgTemplate = (string | { ph: string })[];

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
}

const expandTilde = (p: string) => (p === "~" ? homedir() : p.startsWith("~/") ? join(homedir(), p.slice(2)) : p);

/** The argv and environment a template gives for `values` (role_file must already exist). */
export function buildArgv(t: CommandTemplate, values: Readonly<Record<string, string>>): { file: string; args: string[]; env: Record<string, string> } {
  const fill = (parts: ArgTemplate) => parts.map((p) => (typeof p === "string" ? p : (values[p.ph] ?? `{${p.ph}}`))).join("");
  const env = Object.fromEntries(t.env.map(([k, v]) => [k, fill(v)]));
  const [file, ...args] = t.argv.map(fill);
  return { file: expandTilde(file!), args, env };
}

/** Writes `content` to a new file only this user can read (0600, exclusive create, random name). */
export function writePrivateTemp(content: string): string {
  const path = join(tmpdir(), `rye-role-${randomBytes(12).toString("hex")}.md`);
  const fd = openSync(path, "wx", 0o600);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Runs the agent; a {role_file} temp file is removed after it exits, whether it succeeded or not. */
export async function launchAgent(t: CommandTemplate, v: LaunchValues, options: LaunchOptions = {}) {
  const usesRoleFile = [...t.argv, ...t.env.map((e) => e[1])].some((parts) => parts.some((p) => typeof p !== "string" && p.ph === "role_file"));
  const roleFile = usesRoleFile ? writePrivateTemp(v.role) : "";
  try {
    const { file, args, env } = buildArgv(t, { bin: v.bin, model: v.model, prompt: v.prompt, role: v.role, role_file: roleFile, date: isoDate() });
    return await execa(file, args, {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...env },
      extendEnv: false,
      shell: false,
      reject: false,
      stdio: options.capture ? "pipe" : "inherit",
      timeout: options.timeoutMs,
    });
  } finally {
    if (roleFile) rmSync(roleFile, { force: true });
  }
}
