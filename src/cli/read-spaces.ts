import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceFile } from "../index.js";
import { readProject } from "./read-project.js";

export interface Spaces {
  project: string;
  /** `--user-space`, else `$USER_SPACE`, else the home directory (decisions.md #17). */
  user: string;
  /** `--system DIR`, repeatable, in order. */
  systems: readonly string[];
}

/** The spaces of a build from CLI flags and the environment. */
export function spacesFrom(project: string, flags: { "user-space"?: string; system?: string[] }, cwd: string, env: NodeJS.ProcessEnv): Spaces {
  return {
    project,
    user: resolve(cwd, flags["user-space"] ?? env.USER_SPACE ?? homedir()),
    systems: (flags.system ?? []).map((s) => resolve(cwd, s)),
  };
}

/**
 * Reads every space, project → user → system, tagging each item with its space; items of other
 * spaces carry absolute paths so diagnostics name them unambiguously. The first
 * `hook_conditions.yaml` found in that order configures context hooks.
 */
export function readSpaces(spaces: Spaces): { sources: SourceFile[]; diagnostics: Diagnostic[]; hookConfig: { path: string; text: string } | null } {
  const project = readProject(spaces.project);
  const sources: SourceFile[] = project.sources.map((s) => ({ ...s, space: "project" }));
  const others: [string, string][] = [];
  if (resolve(spaces.user) !== resolve(spaces.project)) others.push(["user", spaces.user]);
  spaces.systems.forEach((dir, i) => others.push([`system:${i}`, dir]));
  for (const [space, root] of others) {
    for (const s of readProject(root).sources) sources.push({ ...s, space, path: join(root, s.path) });
  }
  let hookConfig: { path: string; text: string } | null = null;
  for (const root of [spaces.project, ...others.map(([, r]) => r)]) {
    const path = join(root, ".ai", "config", "agent", "hook_conditions.yaml");
    if (existsSync(path)) {
      hookConfig = { path, text: readFileSync(path, "utf8") };
      break;
    }
  }
  return { sources, diagnostics: project.diagnostics, hookConfig };
}
