// A command's settings: its flags, else the project's config file, else the defaults. Paths in the
// config file are relative to the project root; paths in flags to the working directory.
import { resolve } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { RyeConfig } from "./config-keys.js";
import { readConfig } from "./read-config.js";

/** The flags a command may have that the config file also sets. */
export interface SettingFlags {
  out?: string;
  "user-space"?: string;
  system?: string[];
  "allow-unsigned"?: boolean;
  "verify-sources"?: boolean;
  agents?: string;
  verbose?: boolean;
}

/** Settings with every path absolute, and the config file's problems (located in it). */
export interface Settings {
  out: string;
  userSpace?: string;
  systems: string[];
  allowUnsigned: boolean;
  verifySources: boolean;
  agents?: string;
  verbose: boolean;
  /** The environment with RYE_SIGNING_KEY_DIR from the config when the environment does not set it. */
  env: NodeJS.ProcessEnv;
  /** The config file used, project-relative, or null. */
  source: string | null;
  problems: Diagnostic[];
}

/** Merges `flags` over the config file of `project`. */
export function resolveSettings(project: string, flags: SettingFlags, cwd: string, env: NodeJS.ProcessEnv): Settings {
  const { config, source, diagnostics } = readConfig(project);
  const fromConfig = (p: string | undefined) => (p === undefined ? undefined : resolve(project, p));
  const pick = <K extends keyof RyeConfig>(flag: RyeConfig[K] | undefined, key: K): RyeConfig[K] | undefined => flag ?? config[key];
  const keyDir = env.RYE_SIGNING_KEY_DIR ?? fromConfig(config.signingKeyDir);
  return {
    out: flags.out !== undefined ? resolve(project, flags.out) : resolve(project, config.out ?? "out"),
    userSpace: flags["user-space"] !== undefined ? resolve(cwd, flags["user-space"]) : fromConfig(config.userSpace),
    systems: flags.system !== undefined ? flags.system.map((s) => resolve(cwd, s)) : (config.system ?? []).map((s) => resolve(project, s)),
    allowUnsigned: pick(flags["allow-unsigned"] || undefined, "allowUnsigned") ?? false,
    verifySources: pick(flags["verify-sources"] || undefined, "verifySources") ?? false,
    agents: flags.agents !== undefined ? resolve(cwd, flags.agents) : fromConfig(config.agents),
    verbose: pick(flags.verbose || undefined, "verbose") ?? false,
    env: keyDir === undefined ? env : { ...env, RYE_SIGNING_KEY_DIR: keyDir },
    source,
    problems: diagnostics,
  };
}
