// A command's settings: its flags, else the project's config file, else the defaults. Paths in the
// config file are relative to the project root; paths in flags to the working directory.
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import * as d from "../diagnostics/codes.js";
import { LineIndex, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { RyeConfig } from "./config-keys.js";
import { readConfig, readConfigText } from "./read-config.js";
import { isInside, workingTreeOf } from "./find-project.js";
import { userSpace } from "../sign/keys.js";

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
  const keyDir = env.RYE_SIGNING_KEY_DIR ?? configKeyDir(project, fromConfig(config.signingKeyDir), source, diagnostics, env);
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

/**
 * The config file's `signingKeyDir`, when it may be used. The config is part of the checkout, and
 * where a folder lies says nothing about who put it there: an archive or a tarball carries folders
 * beside the project as easily as in it, with a key of its own in them (builds would sign with the
 * attacker's key, and --verify-sources would trust it). So the setting only chooses among keys the
 * user space already holds: a folder under `<user space>/.ai/` (the user space the environment
 * names, never the config), links resolved, that holds a signing key. Anything else is an error
 * located at the setting; RYE_SIGNING_KEY_DIR, set by whoever runs the build, names any folder.
 */
function configKeyDir(project: string, dir: string | undefined, source: string | null, problems: Diagnostic[], env: NodeJS.ProcessEnv): string | undefined {
  if (dir === undefined || source === null) return dir;
  // The checkout is the project and the git working tree that holds it (a monorepo's other folders too).
  const [real, proj, keys] = [realOf(dir), realOf(workingTreeOf(resolve(project)) ?? project), realOf(join(userSpace(env), ".ai"))];
  const inside = isInside(real, proj);
  const held = !inside && isInside(real, keys) && real !== keys;
  if (held && existsSync(join(real, "private_key.pem"))) return dir;
  const why = inside
    ? `'signingKeyDir' (${dir}) lies inside the project or the git working tree that holds it, so a change to the checkout could choose the key that signs; keep the key in your user space, or set RYE_SIGNING_KEY_DIR`
    : !held
      ? `'signingKeyDir' (${dir}) is not a folder of your user space's .ai/ (${keys}); the config may only choose among keys the user space holds, since a checkout or an archive can carry a key anywhere beside it: move the key there, or set RYE_SIGNING_KEY_DIR`
      : `'signingKeyDir' (${dir}) holds no signing key; a build never creates one at a place the checkout names: create it there (RYE_SIGNING_KEY_DIR=DIR rye keys generate) or set RYE_SIGNING_KEY_DIR`;
  problems.push(d.invalidConfig(settingAt(project, source, "signingKeyDir"), why));
  return undefined;
}

/** Where the config file names `key` (its first mention), for a located diagnostic. */
function settingAt(project: string, source: string, key: string) {
  // Read a moment ago, and again only as a bounded regular file; at its start when that fails now.
  const read = readConfigText(join(project, source), source, project);
  const text = typeof read === "string" ? read : "";
  const at = Math.max(text.indexOf(JSON.stringify(key)), 0);
  return new LineIndex(text).location(source, at, at + key.length + 2);
}

/** `path` with every link resolved (its nearest existing folder's real path, then the rest as named). */
export function realOf(path: string): string {
  const rest: string[] = [];
  for (let p = resolve(path); ; p = dirname(p)) {
    try {
      return join(realpathSync(p), ...rest.reverse());
    } catch {
      if (dirname(p) === p) return resolve(path);
      rest.push(basename(p));
    }
  }
}
