/**
 * Which agents TOML a bundle run reads, and which agent program it may start. The TOML names the
 * program (`bin`, the command template), so it is code selection: without `--trust-checkout` it
 * comes from outside the checkout — `--agents FILE` outside it, else the user space's
 * `.ai/config/agents.toml` when the user space lies outside it — and the project's config file
 * (`rye.config.json` "agents") is not read. With `--trust-checkout`, the project's choice as before.
 */
import { existsSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { locateProject } from "../builder/load-project.js";
import { resolveSettings } from "../project/settings.js";
import { TRUST_CHECKOUT_FLAG, bundleCheckout } from "./bundle-run-options.js";
import { checkoutEnv } from "./checkout-env.js";
import { homeProblem } from "./launch-guard.js";

/** The agents file to read (`label` as the user named it, for messages), or why there is none (exit code). */
export type AgentsChoice = { path: string; label: string } | { problem: string; code: number };

/** Options of a bundle run that launches an agent. */
export interface AgentsOptions {
  bundle: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--agents FILE`, relative to cwd. */
  agents?: string;
  trustCheckout?: boolean;
}

/** The project's choice, as before the checkout rule: the config's `"agents"`, else `.ai/config/agents.toml`. */
function projectAgents(o: AgentsOptions): { path: string; label: string } {
  if (o.agents !== undefined) return { path: resolve(o.cwd, o.agents), label: o.agents };
  const found = locateProject({ cwd: o.cwd, env: o.env });
  const fromConfig = "problem" in found ? undefined : resolveSettings(found.root, {}, o.cwd, o.env).agents;
  const label = fromConfig ?? ".ai/config/agents.toml";
  return { path: resolve(o.cwd, label), label };
}

const missing = (path: string, hint: string): AgentsChoice => ({ problem: `No agent configuration at ${path} (--agents FILE)${hint}.`, code: 2 });

/** The agents TOML of a bundle run under the checkout rule. */
export function chooseAgentsFile(o: AgentsOptions): AgentsChoice {
  if (o.trustCheckout) {
    const chosen = projectAgents(o);
    return existsSync(chosen.path) ? chosen : missing(chosen.path, "");
  }
  const { checkout } = bundleCheckout({ bundle: o.bundle, cwd: o.cwd, env: o.env });
  const refuse = (what: string): AgentsChoice => ({
    problem: `${what} lies in the checkout, and a bundle run does not let the checkout choose the agent to run: keep the agents TOML outside it, or pass ${TRUST_CHECKOUT_FLAG} to use it.`,
    code: 1,
  });
  if (o.agents !== undefined) {
    const path = resolve(o.cwd, o.agents);
    return checkout.contains(path) ? refuse(`--agents ${path}`) : existsSync(path) ? { path, label: o.agents } : missing(path, "");
  }
  const space = resolve(o.cwd, o.env.USER_SPACE ?? homedir());
  const path = join(space, ".ai", "config", "agents.toml");
  if (checkout.contains(path)) return refuse(`The user space ${space}, and so its .ai/config/agents.toml,`);
  const project = resolve(o.cwd, ".ai", "config", "agents.toml");
  const hint = existsSync(project) && project !== path ? `; ${project} is in the checkout, and a bundle run reads it only with ${TRUST_CHECKOUT_FLAG}` : "";
  return existsSync(path) ? { path, label: path } : missing(path, hint);
}

/** Refuses an agent program in the checkout (a relative `bin` resolves against the working directory). */
export function agentProgramCheck(o: AgentsOptions): { env: NodeJS.ProcessEnv; checkProgram?: (path: string) => string | null } {
  if (o.trustCheckout) return { env: o.env };
  const { checkout, osEnv, optIn } = bundleCheckout({ bundle: o.bundle, cwd: o.cwd, env: o.env });
  const checked = checkoutEnv(o.env, checkout);
  // An agent CLI reads its settings (hooks that run commands) from HOME, as any program does.
  const home = osEnv.HOME ?? userInfo().homedir;
  const checkProgram = (program: string) => {
    if (checked.problem) return `${checked.problem}; a bundle run does not let the checkout choose code to run (${optIn})`;
    if (checkout.contains(home)) return homeProblem(home, optIn);
    return checkout.contains(program) ? `agent program ${resolve(o.cwd, program)} lies in the checkout, and a bundle run does not let the checkout choose code to run (${optIn})` : null;
  };
  return { env: osEnv, checkProgram };
}
