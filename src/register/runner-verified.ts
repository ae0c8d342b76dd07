/**
 * Whether the `rye-build/vite` plugin, whose load hook verifies every output file its server
 * reads, feeds the module runners of this thread.
 *
 * In the plugin's own process (`ssrLoadModule`) it says so in memory, on a registry-wide symbol
 * (the register entry and the plugin may be two copies of this file: a config bundled with its
 * imports, the sources beside dist/). Vitest evaluates in worker threads and forked processes, which
 * share nothing with it but the environment, and an environment variable is something a checkout's
 * `.env` can set (`node --env-file`, `process.loadEnvFile`, dotenv). So the variable holds a token
 * a checkout cannot make: the id of the process the plugin ran in and an HMAC of it under the
 * secret of the user space (the one rye's bookkeeping is sealed with, kept outside the checkout,
 * mode 0600). It is accepted only in that process's threads and its direct children.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { bookkeepingFor } from "../cache/bookkeeping-secret.js";

const KEY = Symbol.for("rye-build.runner-verified");

/** The variable that carries the token to the runner's workers. */
export const RUNNER_VERIFIED = "RYE_VITE_PLUGIN_VERIFIES";

type Marked = { [KEY]?: true };

/** The user space's secret for this working directory, or null when there is none outside the checkout. */
function secret(): Buffer | null {
  return bookkeepingFor(process.cwd(), process.env).secret;
}

function mac(key: Buffer, pid: string): Buffer {
  // No bookkeeping record's MAC input starts this way (theirs start with a record kind).
  return createHmac("sha256", key).update(`rye-build runner verified\0${pid}`).digest();
}

/** Called by the plugin: runners of this process, and of its threads and children, evaluate what its load hook verified. */
export function markRunnerVerified(): void {
  (globalThis as Marked)[KEY] = true;
  const key = secret();
  const pid = String(process.pid);
  if (key === null) delete process.env[RUNNER_VERIFIED];
  else process.env[RUNNER_VERIFIED] = `${pid}.${mac(key, pid).toString("hex")}`;
}

/** The token in the environment, if this process or its parent made it with this user space's secret. */
function tokenHolds(token: string): boolean {
  const m = /^(\d+)\.([0-9a-f]{64})$/.exec(token);
  if (m === null || (m[1] !== String(process.pid) && m[1] !== String(process.ppid))) return false;
  const key = secret();
  if (key === null) return false;
  const claimed = Buffer.from(m[2]!, "hex");
  return timingSafeEqual(claimed, mac(key, m[1]!));
}

const checked = new Map<string, boolean>();

/** Null when a runner here evaluates what the plugin verified, else why not (for the refusal). */
export function runnerUnverified(): string | null {
  if ((globalThis as Marked)[KEY] === true) return null;
  const token = process.env[RUNNER_VERIFIED];
  if (token === undefined || token === "") return "nothing verified it";
  let holds = checked.get(token);
  if (holds === undefined) checked.set(token, (holds = tokenHolds(token)));
  return holds ? null : `nothing verified it (${RUNNER_VERIFIED} is set, but not by the rye-build/vite plugin in this process or its parent with this user space's secret)`;
}
