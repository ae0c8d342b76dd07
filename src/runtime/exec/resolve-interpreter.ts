import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { delimiter, isAbsolute, sep } from "node:path";
import { pyStr, pyStrip } from "../pystr.js";

/**
 * The folders whose files must not choose the interpreter (a bundle run's checkout, decisions.md
 * #23), and what to tell the user when nothing outside them will do.
 */
export interface CheckoutPolicy {
  /** True when `path` lies in the checkout. */
  contains(path: string): boolean;
  /** How to let the checkout choose after all, e.g. "pass --trust-checkout". */
  optIn: string;
}

/** What interpreter resolution may consult besides its own config. */
export interface InterpreterSources {
  osEnv: Readonly<Record<string, string | undefined>>;
  projectPath: string;
  /** When set, no candidate inside these folders is taken: the fallback is used, or the run refused. */
  checkout?: CheckoutPolicy;
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** Joins path segments as Python's pathlib does: an absolute segment restarts the path, `..` is kept. */
export function pathJoin(...parts: string[]): string {
  const joined = parts.reduce((acc, part) => (isAbsolute(part) || acc === "" ? part : `${acc}${sep}${part}`), "");
  const root = joined.startsWith(sep) ? sep : "";
  const segments = joined.split(sep).filter((s) => s !== "" && s !== ".");
  return root + segments.join(sep) || ".";
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => pyStr(v)) : []);

/**
 * Sets `config.var` to an interpreter path: an inherited value that names an existing file is kept;
 * otherwise `local_binary`, `system_binary` or `command` resolution runs, falling back to `fallback`.
 */
export function resolveInterpreter(env: Record<string, string>, config: Record<string, unknown>, sources: InterpreterSources): Record<string, string> {
  const name = config.var;
  if (typeof name !== "string" || !name) return env;
  // Every candidate goes through `allowed`: in a bundle run a file of the checkout is passed over.
  const skipped: string[] = [];
  const allowed = (path: string) => {
    if (!sources.checkout?.contains(path)) return true;
    skipped.push(path);
    return false;
  };
  const existing = env[name] || sources.osEnv[name];
  if (existing && isFile(existing) && allowed(existing)) {
    env[name] = existing;
    return env;
  }
  let path: string | undefined;
  if (config.type === "local_binary") path = localBinary(config, sources.projectPath, allowed);
  else if (config.type === "system_binary") path = systemBinary(config, sources.osEnv, allowed);
  else if (config.type === "command") path = commandOutput(config, sources.osEnv, allowed);
  else return env;
  if (path) env[name] = path;
  else if (Object.hasOwn(config, "fallback") && allowedFallback(pyStr(config.fallback), allowed)) env[name] = pyStr(config.fallback);
  else if (skipped.length > 0) throw new Error(checkoutRefusal(name, skipped, sources.checkout!));
  return env;
}

/** A fallback naming a file (it holds a separator) must lie outside the checkout too; a bare name is looked up on PATH at the spawn. */
function allowedFallback(fallback: string, allowed: (path: string) => boolean): boolean {
  return !fallback.includes(sep) || allowed(fallback);
}

function checkoutRefusal(name: string, skipped: readonly string[], checkout: CheckoutPolicy): string {
  return `The interpreter ${name} would be ${skipped[0]}, which lies in the checkout; a bundle run does not let the checkout choose code to run (set ${name} to an interpreter outside it, or ${checkout.optIn})`;
}

function localBinary(config: Record<string, unknown>, projectPath: string, allowed: (path: string) => boolean): string | undefined {
  const binary = config.binary;
  const searchPaths = strings(config.search_paths);
  if (typeof binary !== "string" || !binary || searchPaths.length === 0) return undefined;
  let candidates = [binary];
  for (const extra of strings(config.candidates)) if (!candidates.includes(extra)) candidates.push(extra);
  if (process.platform === "win32") candidates = candidates.flatMap((c) => [c, `${c}.exe`, `${c}.cmd`]);
  for (const root of [...strings(config.search_roots), projectPath]) {
    for (const dir of searchPaths) {
      for (const candidate of candidates) {
        const path = pathJoin(root, dir, candidate);
        if (existsSync(path) && allowed(path)) return path;
      }
    }
  }
  return undefined;
}

/** `which`: the first executable file named `binary` on the inherited PATH. */
function systemBinary(config: Record<string, unknown>, osEnv: InterpreterSources["osEnv"], allowed: (path: string) => boolean): string | undefined {
  const binary = config.binary;
  if (typeof binary !== "string" || !binary) return undefined;
  const dirs = binary.includes(sep) ? [""] : (osEnv.PATH ?? "").split(delimiter);
  for (const dir of dirs) {
    const path = dir ? pathJoin(dir, binary) : binary;
    try {
      accessSync(path, constants.X_OK);
      if (isFile(path) && allowed(path)) return path;
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Runs `resolve_cmd` (an argv list, no shell) and takes the first line of its output. */
function commandOutput(config: Record<string, unknown>, osEnv: InterpreterSources["osEnv"], allowed: (path: string) => boolean): string | undefined {
  const cmd = config.resolve_cmd;
  if (!Array.isArray(cmd) || cmd.length === 0) return undefined;
  const argv = cmd.map((c) => pyStr(c));
  // A resolve_cmd naming a program by path runs it: one in the checkout is passed over like a candidate.
  if (argv[0]!.includes(sep) && !allowed(argv[0]!)) return undefined;
  const run = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8", timeout: 5000, env: osEnv as NodeJS.ProcessEnv });
  if (run.error || run.status !== 0) return undefined;
  const path = pyStrip(run.stdout).split("\n")[0];
  return path && allowed(path) ? path : undefined;
}
